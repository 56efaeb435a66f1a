"""Time in a statement: whether it is about a closed past rather than the present.

A statement about the past ("I worked at Acme from 2019 to 2023", "I used to live in Lima",
"Früher wohnte ich in Graz") stays true, but it is not the current value of its slot, so it
must never retire the present one. `is_past(text)` says so from three signals:
- a closed period: two years joined by a range word or dash ("2019–2023", "von 2019 bis 2023",
  "de 2019 a 2023", "από το 2019 έως το 2023"), or "until"/"bis"/"hasta"/… a year, with the
  period's end no later than this year;
- an "ago" phrase ("three years ago", "vor drei Jahren", "il y a 3 ans", "hace 3 años");
- a past marker from a small table per language ("used to", "previously", "früher", "avant",
  "antes", "in passato", "antigamente", "παλιά", "eskiden", "以前", …).
A present change ("I no longer live in Athens", "I moved to Berlin in May") is not past.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from jamgate_stages._lazy_re import lazy_compile

_YEAR = r"(?:19|20)\d\d"
# Any year of this or the last century in a text, in any script's digits-free surroundings.
YEARS = lazy_compile(rf"(?<!\d){_YEAR}(?!\d)")
_ARTICLE = r"(?:(?:the|το|el|il|lo|le|o|a|al|ao|dem|de)\s+)?"
# Words that join the two ends of a period: en de fr es it pt el, then dashes.
_RANGE_WORDS = (
    r"to|till|until|through|thru|and|bis|und|à|au|et|a|al|hasta|y|e|ao|até|έως|ως|μέχρι|και"
)
_PERIOD = lazy_compile(
    rf"\b({_YEAR})\s*(?:[-–—/]|\s(?:{_RANGE_WORDS})\s+{_ARTICLE}(?:\w+\s+)?)\s*({_YEAR})\b",
    re.IGNORECASE,
)
_UNTIL = lazy_compile(
    rf"(?:\b(?:until|till|before|bis|vor|hasta|antes\s+de|fino al?|prima\s+del?|até|avant|"
    rf"μέχρι|έως|πριν\s+(?:το|από\s+το))\s+{_ARTICLE}|"
    rf"\bjusqu['’](?:en|à|au)\s+|\bjusqu['’]a\s+)(?:\w+\s+)?({_YEAR})\b",
    re.IGNORECASE,
)
_UNTIL_LAST = lazy_compile(
    r"\b(?:until|till) last (?:year|month|summer|winter|spring|autumn|fall)\b|"
    r"\bbis (?:letztes|letzten|vor(?:igen|iges)?) (?:jahr|monat|sommer|winter)\b|"
    r"\bjusqu['’](?:à|a) l['’]an(?:née)? dernière?\b|\bhasta el año pasado\b|"
    r"\bfino all['’]anno scorso\b|\baté o ano passado\b|\bμέχρι πέρ(?:σ|υσ)ι\b",
    re.IGNORECASE,
)
_AGO = lazy_compile(
    r"\b(?:\w+|\d+)\s+(?:years?|months?|weeks?|days?|decades?)\s+ago\b|"
    r"\bvor\s+(?:\w+|\d+)\s+(?:jahren|monaten|wochen|tagen|jahrzehnten)\b|"
    r"\bil y a\s+(?:\w+|\d+)\s+(?:ans?|années?|mois|semaines?|jours?)\b|"
    r"\bhace\s+(?:\w+|\d+)\s+(?:años?|meses?|semanas?|días?)\b|"
    r"\b(?:\w+|\d+)\s+(?:anni|anno|mesi|mese|settimane|giorni)\s+fa\b|"
    r"\bhá\s+(?:\w+|\d+)\s+(?:anos?|meses?|semanas?|dias?)\b|"
    r"\bπριν(?:\s+από)?\s+(?:\w+|\d+)\s+(?:χρόνια|χρόνο|μήνες|μήνα|εβδομάδες|μέρες)\b",
    re.IGNORECASE,
)
# Markers of a past that no longer holds, by language.
_MARKERS = lazy_compile(
    r"\b(?:previously|formerly|in the past|back then|back in the day|at the time|"
    r"once upon a time|former|"  # en
    r"früher|ehemals|ehemalig\w*|damals|zuvor|vorher|einst|"  # de
    r"autrefois|auparavant|anciennement|à l['’]époque|jadis|"  # fr
    r"antiguamente|anteriormente|sol[íi]a|sol[íi]amos|en el pasado|en aquel entonces|"  # es
    r"in passato|un tempo|precedentemente|a quei tempi|"  # it
    r"antigamente|costumava|costumávamos|no passado|naquela época|"  # pt
    r"παλιά|παλαιότερα|πρώην|προηγουμένως|κάποτε|"  # el
    r"eskiden|önceden|daha önce|"  # tr
    r"vroeger|раньше|прежде|когда-то)(?!\w)|"
    # "used to" of a habit, not of a tool ("a checksum used to validate …").
    r"(?:^|\b(?:i|we|he|she|they|user|also|once|really|never|always)\s+)used to\b|"
    # "before" words that also open clauses ("avant de", "antes de que", "prima di").
    r"\b(?:avant|antes)\b(?!\s+(?:de|d['’]|du|des|que|qu['’])\b)|"
    r"(?:^|[,;]\s*)prima\b(?!\s+(?:di|del|della|che)\b)|\bex-(?=\w)|"
    r"以前|曾经|曾經|过去|過去|かつて|昔は",
    re.IGNORECASE,
)


def period_end(text: str) -> int | None:
    """The last year of a closed period the text names ("2019 to 2023" → 2023), or None."""
    ends = [int(m.group(2)) for m in _PERIOD.finditer(text) if m.group(2) >= m.group(1)]
    ends += [int(m.group(1)) for m in _UNTIL.finditer(text)]
    return max(ends) if ends else None


def is_past(text: str, now: datetime | None = None) -> bool:
    """Whether `text` speaks of a closed past, not of the present (see the module docstring)."""
    end = period_end(text)
    year = (now or datetime.now(UTC)).year
    if end is not None and end <= year:
        return True
    return bool(_UNTIL_LAST.search(text) or _AGO.search(text) or _MARKERS.search(text))
