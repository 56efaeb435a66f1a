"""Which of the person's own subjects a recall query asks about (`jamgate_recall_subjects`).

The subject stage files "I moved to Thessaloniki in May" under `location` and "I now work at
Acme" under `employer`, but a question shares no word with them: "where do I live" finds, by
words alone, only a friend who "lives in Oslo". A first-person question about a slot the
subject stage keeps (home, workplace, name) names that subject, and the person's live record
of it leads the answer (D-261). Questions about someone else ("where does Anna live") name
none: their subjects carry the other person's name. The languages are the subject stage's
(en, de, fr, es, it, pt, el).
"""

from __future__ import annotations

import re

from jamgate_core import hookimpl
from jamgate_stages._lazy_re import lazy_compile

_I = re.IGNORECASE
# (subject, a first-person question about it), per language in one pattern each.
QUESTIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("location", lazy_compile(
        r"\b(?:where|which\s+(?:city|town|country|place)|what\s+(?:city|town|country))\b"
        r"[^?.!]{0,30}\b(?:do|am|are)\s+(?:i|we)\s+(?:now\s+|currently\s+)?"
        r"(?:live|living|reside|residing|based|located|staying)\b"
        r"|\bwhere(?:'s|’s|\s+is)\s+(?:my|our)\s+(?:home|house|flat|apartment)\b"
        r"|\bwhat(?:'s|’s|\s+is)\s+(?:my|our)\s+(?:home\s+)?(?:address|home\s*town|city)\b"
        r"|\bwo\s+(?:wohne|lebe)\s+ich\b|\bwo\s+(?:wohnen|leben)\s+wir\b"
        r"|\bin\s+welcher\s+stadt\s+(?:wohne|lebe)\s+ich\b"
        r"|\boù\b[^?.!]{0,20}(?:\bj['’]\s?habite\b|\bje\s+(?:vis|réside)\b|\bhabité-je\b"
        r"|\bnous\s+habitons\b)"
        r"|\bd[oó]nde\s+(?:vivo|resido|vivimos)\b"
        r"|\bdove\s+(?:vivo|abito|risiedo|viviamo|abitiamo)\b"
        r"|\bonde\s+(?:eu\s+)?(?:moro|vivo|resido|moramos)\b"
        r"|(?<!\w)πού\s+(?:μένω|ζω|κατοικώ|μένουμε)(?!\w)", _I)),
    ("employer", lazy_compile(
        r"\bwhere\b[^?.!]{0,20}\b(?:do|am)\s+i\s+(?:now\s+|currently\s+)?(?:work|working)\b"
        r"|\bwho\s+(?:do|am)\s+i\s+(?:now\s+|currently\s+)?(?:work|working)\s+for\b"
        r"|\bwhat(?:'s|’s|\s+is)\s+my\s+(?:employer|company|workplace)\b"
        r"|\bwhich\s+(?:company|firm|employer)\s+do\s+i\s+work\b"
        r"|\bwo\s+arbeite\s+ich\b|\b(?:bei\s+wem|für\s+wen)\s+arbeite\s+ich\b"
        r"|\boù\b[^?.!]{0,20}\bje\s+travaille\b|\bpour\s+qui\s+(?:est-ce\s+que\s+)?je\s+travaille\b"
        r"|\bd[oó]nde\s+trabajo\b|\bpara\s+qui[eé]n\s+trabajo\b"
        r"|\bdove\s+lavoro\b|\bper\s+chi\s+lavoro\b"
        r"|\bonde\s+(?:eu\s+)?trabalho\b|\bpara\s+quem\s+(?:eu\s+)?trabalho\b"
        r"|(?<!\w)(?:πού|για\s+ποιον)\s+(?:δουλεύω|εργάζομαι)(?!\w)", _I)),
    ("name", lazy_compile(
        r"\bwhat(?:'s|’s|\s+is)\s+my\s+name\b|\bwhat\s+(?:do|should)\s+you\s+call\s+me\b"
        r"|\bwie\s+heiße\s+ich\b|\bcomment\s+je\s+m['’]appelle\b|\bquel\s+est\s+mon\s+nom\b"
        r"|\bc[oó]mo\s+me\s+llamo\b|\bcu[aá]l\s+es\s+mi\s+nombre\b|\bcome\s+mi\s+chiamo\b"
        r"|\bqual\s+(?:é\s+)?o\s+meu\s+nome\b|\bcomo\s+(?:eu\s+)?me\s+chamo\b"
        r"|(?<!\w)πώς\s+με\s+λένε(?!\w)", _I)),
)
MAX_QUERY = 200


@hookimpl
def jamgate_recall_subjects(query: str) -> list[str] | None:
    """The person's own subjects `query` asks about, or None."""
    if len(query) > MAX_QUERY:
        return None
    return [subject for subject, pattern in QUESTIONS if pattern.search(query)] or None
