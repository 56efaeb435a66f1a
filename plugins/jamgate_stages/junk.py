"""Junk: fragments, template text, whole-text questions and untyped transient notes.

- `junk.placeholder`: unfilled template slots (`{{user_name}}`, `<name>`, `[INSERT FOOD]`,
  `${VAR}`), lorem ipsum, or nothing but test words ("foo bar", "testing testing").
- `junk.fragment`: fewer than two distinct meaningful words (filler, single Latin letters and
  bare numbers do not count).
- `junk.question`: the whole text asks rather than states, in any of a dozen languages. A
  `type` never exempts a question.
- `junk.transient`: present-moment state ("right now", live weather) saved without a `type`.
  Preferences about weather ("prefers cold weather", "runs when it's sunny") are durable.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from jamgate_core import BaseStage, Candidate, StageContext, StageResult
from jamgate_stages._text import FILLER, PLACEHOLDERS, has_script, sentences, tokens, wordset

_SLOT_WORDS = (
    r"placeholder|insert|your|name|user|username|first[ _]?name|last[ _]?name|email|city|"
    r"date|value|food|drink|company|todo|tbd|fill|xxx"
)
_SLOTS = re.compile(
    r"\{\{[^{}]*\}\}|\{%[^%]*%\}|\$\{[A-Za-z_][A-Za-z0-9_]*\}|"
    rf"<\s*(?:{_SLOT_WORDS})(?:[ _-]\w+)*\s*>|<[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+>|"
    rf"\[\s*(?:[\w ]*\b)?(?:{_SLOT_WORDS})\b[\w ]*\]|\blorem ipsum\b",
    re.IGNORECASE,
)
_TEMPLATE_TALK = re.compile(
    r"\b(?:template|templates|jinja|handlebars|mustache|syntax|variable|variables|macro|"
    r"interpolat\w*|f-strings?)\b",
    re.IGNORECASE,
)

# First words that make a sentence ending in a question mark a question.
_OPENERS: frozenset[str] = wordset(
    """what whats when where who whom whose which why how is are was were am do does did can
    could should would will shall has have had may might isn aren don doesn didn won wouldn
    couldn shouldn qué que cuál cuáles cuándo dónde donde quién quiénes por cómo cuánto
    cuánta cuántos cuántas es está was wer wen wem wessen wann wo woher wohin warum weshalb
    wieso wie welche welcher welches ist sind hat haben kann können gibt soll sollte wird
    würde war qu quoi quand où qui pourquoi comment combien quel quelle quels quelles est τι
    ποιος ποια ποιο ποιοι πότε πού που γιατί πώς πως πόσο πόσα πόσοι μήπως είναι что кто
    когда где почему зачем как какой какая какие сколько куда откуда разве چطور چگونه چقدر
    چرا کجا کی کِی چه چی آیا کدام هل ما ماذا لماذا متى أين كيف من كم أي क्या कौन कब कहाँ कहां
    क्यों कैसे कितना कितने किस 뭐 무엇 언제 어디 왜 어떻게 누구 누가 몇"""
)
_CJK_INTERROGATIVES = re.compile(
    r"什么|什麼|谁|誰|哪|为什么|為什麼|怎么|怎麼|怎样|多少|几|吗|嗎|呢|何|なぜ|どこ|いつ|どう|どの|か[。\s]*$"
)
_QUESTION_END = re.compile(r"[?？؟⸮]\s*[\"'”’)\]]*\s*$")
_GREEK_QUESTION_END = re.compile(r"[;\u037e]\s*$")
_WH_NO_MARK = re.compile(
    r"^(?:what|where|who|when|which|why|how)(?:'s|\s+(?:is|are|was|were|do|does|did|can|could|"
    r"should|would|will|has|have|had|much|many|long|old|often))\b",
    re.IGNORECASE,
)
_AUX_NO_MARK = re.compile(
    r"^(?i:is|are|was|were|does|did|has|have|can|could|should|would|will)\s+"
    r"(?:(?i:jam|he|she|they|you|i|the user|user|it|there|this|that)\b|[A-Z][\w'-]+\s+\w)"
)
_CJK_NO_MARK = re.compile(r"(?:吗|嗎|呢|ですか|ますか|でしたか|ましたか|のか)[。\s]*$")

_MARKERS = re.compile(
    r"\b(?:right now|at the moment|at present|just now|for now|as of (?:right )?now|"
    r"as we speak|at this (?:very )?moment|currently feeling|ahora mismo|en este momento|"
    r"por ahora|en ce moment|à l'instant|pour l'instant|gerade jetzt|im moment|"
    r"im augenblick|αυτή τη στιγμή|προς το παρόν|прямо сейчас|в данный момент|"
    r"в настоящий момент)\b|此时此刻|今のところ|در حال حاضر",
    re.IGNORECASE,
)
_TOKEN_MARKERS = frozenset({"الان", "فعلا"})
_WEATHER_NOW = re.compile(
    r"\b(?:it's|it’s|it is|its)\s+(?:\w+\s+)?(?:raining|snowing|drizzling|pouring|sunny|"
    r"cloudy|overcast|foggy|windy|humid|hot|cold|freezing|stormy|warm|chilly)\b",
    re.IGNORECASE,
)
_CONDITIONAL = re.compile(
    r"\b(?:when|whenever|if|unless|because|until|while|as long as)\s+(?:\w+\s+){0,2}$",
    re.IGNORECASE,
)
_HABITUAL = re.compile(
    r"\b(?:in (?:the )?(?:winter|summer|spring|autumn|fall|january|february|march|april|may|"
    r"june|july|august|september|october|november|december)|every|usually|always|often|"
    r"generally|normally|rarely|sometimes|most (?:days|mornings|years))\b",
    re.IGNORECASE,
)
_WEATHER_TODAY = re.compile(
    r"\b(?:weather|temperature|forecast)\b[^.!?\n]{0,40}?\b(?:today|tonight|right now|now|"
    r"currently|outside|this (?:morning|afternoon|evening))\b|"
    r"\b(?:today's|tonight's|current)\s+(?:weather|temperature|forecast)\b",
    re.IGNORECASE,
)
_TEMPERATURE = re.compile(r"-?\d{1,2}\s?°\s?[CF]\b")
# A standing rule ("Always check which branch is checked out right now before committing")
# uses present-moment words about the moment the rule applies, not about today.
_STANDING_RULE = re.compile(
    r"^(?:please\s+)?(?:always|never|don't|do not|whenever|every time|each time)\b",
    re.IGNORECASE,
)
_FILL_LATER = re.compile(
    r"^\W*(?:todo|tbd|fixme|xxx)\b\W*(?:(?:fill(?:\s+(?:in|out|this|it))?|add|write|complete|"
    r"update|later|here|in|this|it|me|details?)\W*)*$",
    re.IGNORECASE,
)
# Scripts written without spaces between words: one long token is several words.
_UNSPACED_RANGES: tuple[tuple[int, int], ...] = (
    (0x0E00, 0x0E7F),  # Thai
    (0x0E80, 0x0EFF),  # Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
)
_UNSPACED_MIN_LETTERS = 6
_NOW_WORDS = re.compile(
    r"\b(?:it's|it’s|it is|outside|now|currently|today|tonight)\b", re.IGNORECASE
)


def _first_word(text: str) -> str:
    found = tokens(text.lstrip("¿¡\"'([«“ "))
    return found[0] if found else ""


def is_question(text: str) -> bool:
    """Whether the whole text asks rather than states."""
    stripped = text.strip()
    parts = sentences(stripped) or [stripped]
    marked = bool(_QUESTION_END.search(stripped)) or (
        bool(_GREEK_QUESTION_END.search(stripped)) and has_script(stripped, "GREEK")
    )
    if marked or stripped.startswith("¿"):
        if len(parts) == 1 or _first_word(stripped) in _OPENERS:
            return True
        if _CJK_INTERROGATIVES.search(parts[0]):
            return True
        return all(_QUESTION_END.search(p) for p in parts)
    if len(parts) != 1:
        return False
    return bool(_WH_NO_MARK.match(stripped) or _AUX_NO_MARK.match(stripped)
                or _CJK_NO_MARK.search(stripped))


def is_transient(text: str) -> bool:
    """Present-moment state or live weather (not preferences about weather)."""
    if _STANDING_RULE.match(text.strip()):
        return False
    if _MARKERS.search(text) or _TOKEN_MARKERS.intersection(tokens(text)):
        return True
    for match in _WEATHER_NOW.finditer(text):
        sentence = next((s for s in sentences(text) if match.group() in s), text)  # rare path
        if not _CONDITIONAL.search(text[: match.start()]) and not _HABITUAL.search(sentence):
            return True
    if _WEATHER_TODAY.search(text):
        return True
    if not _TEMPERATURE.search(text):
        return False
    return any(_TEMPERATURE.search(s) and _NOW_WORDS.search(s) for s in sentences(text))


def placeholder_reason(text: str) -> str | None:
    """Why `text` is template or test text, or None."""
    slots = _SLOTS.findall(text)
    if slots and not _TEMPLATE_TALK.search(_SLOTS.sub(" ", text)):
        return "an unfilled template slot or lorem ipsum"
    if _FILL_LATER.search(text):
        return "a to-do note to fill in later"
    found = tokens(text)
    if found and any(t in PLACEHOLDERS for t in found) and all(
        t in PLACEHOLDERS or t in FILLER for t in found
    ):
        return "test or placeholder words only"
    return None


def meaningful_words(text: str) -> set[str]:
    """Distinct words that can carry a claim: no filler, no test words, no lone Latin letter,
    no bare number."""
    return {
        t for t in tokens(text)
        if t not in FILLER and t not in PLACEHOLDERS and any(c.isalpha() for c in t)
        and not (len(t) == 1 and t.isascii())
    }


def _unspaced(token: str) -> bool:
    return len(token) >= _UNSPACED_MIN_LETTERS and all(
        any(low <= ord(c) <= high for low, high in _UNSPACED_RANGES) for c in token
    )


def word_count(text: str) -> int:
    """How many meaningful words `text` holds; a long run of Thai, Lao, Khmer or Myanmar
    (written without spaces) counts as two."""
    found = meaningful_words(text)
    return len(found) + sum(1 for t in found if _unspaced(t))


class JunkStage(BaseStage):
    """Refuses fragments, placeholders, questions and untyped transient notes."""

    name = "junk"

    class Options(BaseModel):
        questions: bool = True
        transient: bool = True


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        text = candidate.text
        why = placeholder_reason(text)
        if why:
            return StageResult.reject(
                "junk.placeholder",
                f"Rejected: {why}, not a fact. Save the real statement with the values filled "
                "in, e.g. \"Jam's favourite food is moussaka\".",
            )
        if self.options.questions and is_question(text):
            return StageResult.reject(
                "junk.question",
                "Rejected: this is a question, not a fact. Questions ask memory; they are not "
                "memory. If the ANSWER is worth remembering, save the answer as a statement.",
            )
        if self.options.transient and candidate.type is None and is_transient(text):
            return StageResult.reject(
                "junk.transient",
                "Rejected: transient, not durable; this describes right now, not a lasting "
                "fact. If it is worth keeping for a few hours, save it again with type "
                "\"state\" so it expires on its own; otherwise it does not belong in memory.",
            )
        if word_count(text) < 2:
            return StageResult.reject(
                "junk.fragment",
                "Rejected: not a statement. A memory needs at least two meaningful words making "
                "a claim about the person (got a fragment, a number or filler). Save a complete "
                "sentence, e.g. \"Jam lives in Athens\".",
            )
        return StageResult.passed()
