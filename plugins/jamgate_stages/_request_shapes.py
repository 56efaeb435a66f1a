"""The openings that mark a request to the agent whatever its verb (D-272).

The one-off rule first knew a request by its verb, from a list of imperative task verbs per
language. Two markers of the request do not depend on the verb, so they hold for verbs no list
names:
- a polite frame: a second-person modal addressed to the agent ("could you …", "would you
  mind …", "könntest du …", "pourrais-tu …", "¿me podrías …", "ti dispiacerebbe …", "не мог бы
  ты …", "czy możesz …", "zou je …", "μπορείς να …", "هل يمكنك …"): whatever follows is the
  request;
- an imperative with its object pronoun attached, which only the imperative mood does in the
  Romance languages ("Resúmeme", "Tradúceme", "Escríbele", "Scrivimi", "Mandami", "Fais-moi",
  "Escreve-me", "Dá-me"). Verbs of experiencing that take the same pronoun in a statement
  ("Parece-me que …", "Apetece-me …") are not requests.
Either marks a request; the one-off rule still needs a standing word's absence and an object
of this turn (this, the next, below, a new artifact, now) before it refuses.
"""

from __future__ import annotations

import re

from jamgate_stages._lazy_re import lazy_compile

_POLITE_FRAME = lazy_compile(
    r"^(?:(?:please|bitte|por favor|per favore|proszę|пожалуйста|alsjeblieft|παρακαλώ)[\s,]+)?"
    r"(?:(?:could|can|would|will) you(?: please| kindly)?(?: mind)?|"
    r"(?:kannst|könntest|würdest) du(?: bitte| mal)?|(?:können|könnten|würden) sie(?: bitte)?|"
    r"(?:peux|pourrais)-tu|(?:pouvez|pourriez)-vous|tu (?:peux|pourrais|voudrais bien)|"
    r"vous (?:pouvez|pourriez)|"
    r"(?:me |nos |le )?(?:puedes|podrías|podés|podes|podias|poderias|podría|poderia)|"
    r"(?:você|tu) (?:pode|poderia|podia)|(?:mi |ci )?(?:puoi|potresti|potrebbe)|"
    r"ti dispiacerebbe|(?:не )?(?:можешь|можете|сможешь|сможете)|"
    r"не (?:мог|могла|могли) бы (?:ты|вы)|(?:czy )?(?:możesz|mógłbyś|mogłabyś|mogłbyś)|"
    r"(?:kun|kan|zou|wil) je|(?:kunt|zou|wilt) u|"
    r"(?:μπορείς|μπορείτε|θα μπορούσες|θα μπορούσατε) να|(?:هل )?(?:يمكنك|تستطيع|ممكن|تقدر))"
    r"(?!\w)[\s,]*",
    re.IGNORECASE,
)
_ENCLITIC_IMPERATIVE = lazy_compile(
    r"^(?!(?:parece|apetece|agrada|interessa|custa|sembra|semble)-)"
    r"(?:\w+-(?:moi|nous|lui|leur|me|mo|ma|nos|lhe|lhes)|"  # French, Portuguese
    r"\w*[áéíóú]\w*(?:me|nos|le|les|melo|mela|selo|sela)|"  # Spanish: the stress is written
    r"(?:da|fa|sta|va)(?:mmi|cci)|"  # Italian
    r"(?!miami|salami|pastrami|tsunami|origami|tatami|ultimi|ottimi|minimi|massimi|intimi)"
    r"\w{3,}(?:ami|imi))(?!\w)",
    re.IGNORECASE,
)


def polite_frame(text: str) -> int | None:
    """Where the words after a polite frame start ("could you …"), or None."""
    frame = _POLITE_FRAME.match(text)
    return frame.end() if frame is not None and frame.end() < len(text) else None


def request_opening(text: str) -> int | None:
    """Where the request's own words start after a polite frame or an imperative with its
    pronoun attached (see the module docstring), or None."""
    frame = _POLITE_FRAME.match(text)
    if frame is not None and frame.end() < len(text):
        return frame.end()
    verb = _ENCLITIC_IMPERATIVE.match(text)
    return verb.end() if verb is not None else None
