"""The period a recall query names, so the memories saved then can rank first (docs/recall.md).

Understood: a day or a month with its year, written with month names in English, German,
French, Spanish, Italian, Portuguese or Greek ("on 9 October, 2022", "October 13, 2023",
"9. Oktober 2022", "9 de octubre de 2022", "9 Οκτωβρίου 2022", "in May 2023"), ISO dates
(2022-10-09), day.month.year (9.10.2022), and Chinese, Japanese or Korean year-month(-day)
(2022年10月9日, 2022년 10월). A bare year, a weekday or a relative date ("last weekend") names
nothing. Slashed dates are left alone: 9/10/2022 means two different days depending on who
wrote it.
"""

from __future__ import annotations

import re
import unicodedata
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
MONTHS: dict[str, int] = {name: n for n, names in enumerate(_NAMES, 1) for name in names.split()}

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


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", stripped).lower()


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


def query_period(query: str) -> tuple[datetime, datetime] | None:
    """The span of UTC days a query names, widened to the memories saved about it: from the
    day before to a week after (people save "last weekend I …" a few days late)."""
    named = _named(_fold(query))
    if named is None:
        return None
    year, month, day = named
    try:
        start = datetime(year, month, day or 1, tzinfo=UTC)
    except ValueError:  # 31 February, month 13
        return None
    end = start + timedelta(days=1) if day else (start + timedelta(days=32)).replace(day=1)
    return start - timedelta(days=1), end + timedelta(days=7)
