"""The period a recall query names, so the memories saved then can rank first (docs/recall.md).

Understood: a day or a month with its year, written with month names in English, German,
French, Spanish, Italian, Portuguese or Greek ("on 9 October, 2022", "October 13, 2023",
"9. Oktober 2022", "9 de octubre de 2022", "9 Οκτωβρίου 2022", "in May 2023"), ISO dates
(2022-10-09), day.month.year (9.10.2022), and Chinese, Japanese or Korean year-month(-day)
(2022年10月9日, 2022년 10월). Given the moment of the recall, a few English relative dates
too: today, yesterday, N days ago, this or last week, this or last month. A bare year, a weekday
or "last weekend" names nothing. Slashed dates are left alone: 9/10/2022 means two different
days depending on who wrote it.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

# Folded (lowercase, no diacritics) month names and abbreviations, by month number; Greek in
# the genitive (9 Οκτωβρίου), nominative and accusative (τον Οκτώβριο).
_NAMES = (
    "january jan januar janner janvier enero gennaio janeiro ιανουαριου ιανουαριος ιανουαριο",
    "february feb februar fevrier febrero febbraio fevereiro φεβρουαριου φεβρουαριος φεβρουαριο",
    "march mar marz maerz mars marzo marco μαρτιου μαρτιος μαρτιο",
    "april apr avril abril aprile απριλιου απριλιος απριλιο",
    "may mai mayo maggio maio μαιου μαιος μαιο",
    "june jun juni juin junio giugno junho ιουνιου ιουνιος ιουνιο",
    "july jul juli juillet julio luglio julho ιουλιου ιουλιος ιουλιο",
    "august aug aout agosto αυγουστου αυγουστος αυγουστο",
    "september sept sep septembre septiembre setiembre settembre setembro σεπτεμβριου "
    "σεπτεμβριος σεπτεμβριο",
    "october oct oktober octobre octubre ottobre outubro οκτωβριου οκτωβριος οκτωβριο",
    "november nov novembre noviembre novembro νοεμβριου νοεμβριος νοεμβριο",
    "december dec dezember decembre diciembre dicembre dezembro δεκεμβριου δεκεμβριος δεκεμβριο",
)
MONTHS: dict[str, int] = {name.casefold(): n for n, names in enumerate(_NAMES, 1)
                          for name in names.split()}

_MONTH = "(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th|er|o|\.)?"
_OF = r"(?:\s+(?:de|of|του))?"  # "9 de octubre de 2022", "May of 2023", "Μαΐου του 2023"
_YEAR = r"(\d{4})\b"
_DAY_MONTH_YEAR = re.compile(rf"\b{_DAY}{_OF}\s+{_MONTH},?{_OF}\s+{_YEAR}")
_MONTH_DAY_YEAR = re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}")
_MONTH_YEAR = re.compile(rf"\b{_MONTH},?{_OF}\s+{_YEAR}")
_ISO_DAY = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_DOTTED_DAY = re.compile(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b")
_CJK_DATE = re.compile(r"(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월](?:\s*(\d{1,2})\s*[日일])?")


def _named(text: str) -> tuple[int, int, int | None] | None:
    """(year, month, day or None) of the first date `text` names."""
    if found := _DAY_MONTH_YEAR.search(text):
        return int(found[3]), MONTHS[found[2]], int(found[1])
    if found := _MONTH_DAY_YEAR.search(text):
        return int(found[3]), MONTHS[found[1]], int(found[2])
    if found := _ISO_DAY.search(text):
        return int(found[1]), int(found[2]), int(found[3])
    if found := _DOTTED_DAY.search(text):
        return int(found[3]), int(found[2]), int(found[1])
    if found := _CJK_DATE.search(text):
        return int(found[1]), int(found[2]), int(found[3]) if found[3] else None
    if found := _MONTH_YEAR.search(text):
        return int(found[2]), MONTHS[found[1]], None
    return None


_TODAY = re.compile(r"\b(today|tonight|this morning|this afternoon|this evening)\b")
_YESTERDAY = re.compile(r"\byesterday\b")
_DAYS_AGO = re.compile(r"\b(\d{1,3}|two|three|four|five|six) days ago\b")
_WEEK = re.compile(r"\b(this|last|past) week\b")
_MONTH_AGO = re.compile(r"\b(this|last|past) month\b")
_SMALL = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _relative(text: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The span an English relative date names, seen from `now` (a day gets a day's slack on
    each side: `now` is UTC and the person's day may not be)."""
    today = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    back: int | None = None
    if _TODAY.search(text):
        back = 0
    elif _YESTERDAY.search(text):
        back = 1
    elif found := _DAYS_AGO.search(text):
        back = int(_SMALL.get(found[1], found[1]))
    if back is not None:
        day = today - timedelta(days=back)
        return day - timedelta(days=1), day + timedelta(days=2)
    if found := _WEEK.search(text):
        return ((today - timedelta(days=7), now + timedelta(days=1)) if found[1] == "this"
                else (today - timedelta(days=15), today - timedelta(days=5)))
    if found := _MONTH_AGO.search(text):
        first = today.replace(day=1)
        if found[1] == "this":
            return first - timedelta(days=1), now + timedelta(days=1)
        previous = (first - timedelta(days=1)).replace(day=1)
        return previous - timedelta(days=1), first + timedelta(days=7)
    return None


def query_period(folded: str, now: datetime | None = None) -> tuple[datetime, datetime] | None:
    """The span of UTC days a query names, widened to the memories saved about it: from the
    day before to a week after (people save "last weekend I …" a few days late). `folded` is
    the query after `jamgate_core.text.fold` (lowercase, no diacritics). With `now`, the English
    relative dates in the module docstring count too."""
    named = _named(folded)
    if named is None:
        return _relative(folded, now) if now is not None else None
    year, month, day = named
    try:
        start = datetime(year, month, day or 1, tzinfo=UTC)
    except ValueError:  # 31 February, month 13
        return None
    end = start + timedelta(days=1) if day else (start + timedelta(days=32)).replace(day=1)
    return start - timedelta(days=1), end + timedelta(days=7)
