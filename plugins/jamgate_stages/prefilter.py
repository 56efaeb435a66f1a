"""Prefilter: the cheapest refusals, on the text alone (length, then pleasantries).

Lengths are counted in Unicode code points; a first-person claim written in Chinese or Japanese
characters ("我吃素", I'm vegetarian) is kept from three (D-121). A pleasantry is a text made
only of greetings, thanks and acknowledgements in any order and punctuation ("Hey, good
morning!", "thanks!!", "That's noted.", "Merci beaucoup !"), optionally addressed to the agent
("Hi Claude!"), or a text of emoji alone. A pleasantry followed by a fact ("thanks — I moved
to Berlin") passes.
"""

from __future__ import annotations

import unicodedata

from pydantic import BaseModel, Field

from jamgate_core import BaseStage, Candidate, StageContext, StageResult
from jamgate_stages._text import is_cjk, reading, tokens, wordset

# Whole phrases, matched as token sequences (so "that's noted" is ["that", "s", "noted"]).
_PHRASES: tuple[str, ...] = (
    # English
    "hi", "hello", "hey", "heya", "hiya", "yo", "howdy", "greetings", "hello there", "hi there",
    "hey there", "good morning", "good afternoon", "good evening", "good night", "morning",
    "evening", "gm", "gn", "thanks", "thank you", "thank u", "thx", "ty", "tysm", "many thanks",
    "thanks a lot", "thanks a bunch", "thanks so much", "thank you so much", "thank you very much",
    "much appreciated", "appreciated", "appreciate it", "cheers", "ok", "okay", "k", "kk",
    "okie", "okey", "cool", "nice", "great", "awesome", "perfect", "excellent", "wonderful",
    "lovely", "sweet", "neat", "amazing", "lol", "lmao", "haha", "hahaha", "hehe", "yes", "no",
    "yep", "yup", "yeah", "nope", "nah", "sure", "of course", "alright", "all right", "right",
    "fine", "bye", "goodbye", "bye bye", "see you", "see ya", "later", "see you later",
    "talk later", "for now", "got it", "gotcha", "noted", "that s noted", "understood",
    "makes sense", "that makes sense", "sounds good", "sounds great", "looks good", "lgtm",
    "good job", "well done", "nice work", "great work", "good", "very", "so", "much", "a lot",
    "np", "no problem", "no worries", "you re welcome", "welcome", "my pleasure",
    "will do", "roger", "roger that", "copy that", "agreed", "exactly", "indeed", "wow",
    "oh", "ah", "hmm", "hm", "please", "pls", "sorry", "oops", "that s great", "that s it",
    "it", "that", "that s all", "all good", "i see", "oh i see", "ok then",
    # Other languages
    "merci", "merci beaucoup", "bonjour", "bonsoir", "salut", "au revoir", "d accord",
    "gracias", "muchas gracias", "hola", "buenos días", "buenas", "buenas noches", "vale",
    "adiós", "de nada", "danke", "danke schön", "vielen dank", "hallo", "guten morgen",
    "guten tag", "tschüss", "alles klar", "ευχαριστώ", "ευχαριστώ πολύ", "γεια", "γεια σου",
    "καλημέρα", "καλησπέρα", "εντάξει", "спасибо", "спасибо большое", "привет",
    "здравствуйте", "пока", "хорошо", "ладно", "مرسی", "ممنون", "خیلی ممنون", "سلام",
    "خداحافظ", "باشه", "شكرا", "شكرا جزيلا", "مرحبا", "谢谢", "谢谢你", "谢谢您", "非常感谢",
    "多谢", "你好", "好的", "再见",
    "ありがとう", "ありがとうございます", "こんにちは", "おはよう", "おはようございます",
    "了解", "はい", "धन्यवाद", "शुक्रिया", "नमस्ते", "ठीक है", "감사합니다", "고마워",
    "안녕하세요", "안녕", "네", "obrigado", "obrigada", "olá", "grazie", "ciao",
    "ขอบคุณ", "ขอบคุณครับ", "ขอบคุณค่ะ", "สวัสดี", "สวัสดีครับ", "สวัสดีค่ะ",
    "muy amable", "que amable", "très gentil", "sehr nett",
    # Farewells and acknowledgements phrased as a sentence
    "have a great weekend", "have a good weekend", "have a nice weekend", "have a great day",
    "have a good day", "have a nice day", "have a good one", "have a great evening",
    "have a good night", "enjoy your weekend", "enjoy your day", "take care",
    "that works", "that works for me", "works for me", "that s perfect", "that s fine",
)
# Who a pleasantry may be addressed to; these alone are not a pleasantry.
_ADDRESSEES: frozenset[str] = wordset(
    """claude chatgpt gpt gemini copilot cursor assistant bot buddy mate man dude friend
    everyone all guys folks team"""
)
_PHRASE_TOKENS: frozenset[tuple[str, ...]] = frozenset(tuple(tokens(p)) for p in _PHRASES)
_LONGEST = max(len(p) for p in _PHRASE_TOKENS)
_MAX_PLEASANTRY_TOKENS = 12
_EMOJI_CATEGORIES = frozenset({"So", "Sk", "Cf", "Mn", "Me", "Zs", "Po", "Pd", "Ps", "Pe"})


# "I" in Chinese and Japanese: three characters after it make a claim ("我吃素", "私は猫").
_CJK_SELF = frozenset("我私僕俺")
_CJK_CLAIM_LENGTH = 3


def is_short_cjk_claim(text: str) -> bool:
    """A first-person claim in Han or kana, too short for the length rule but a fact."""
    stripped = text.strip().rstrip("。.！!")
    return (len(stripped) >= _CJK_CLAIM_LENGTH and stripped[0] in _CJK_SELF
            and all(is_cjk(char) for char in stripped))


def is_pleasantry(text: str) -> bool:
    """Greetings, thanks and acknowledgements only (any order), or emoji only."""
    words = tokens(text)
    if not words:
        return _is_emoji_only(text)
    if len(words) > _MAX_PLEASANTRY_TOKENS:
        return False
    return _covered(tuple(words))


def _covered(words: tuple[str, ...]) -> bool:
    """Whether `words` splits into known phrases and addressees, with one real phrase."""
    # reachable[i] = (can cover words[:i], saw a phrase on the way)
    reachable: list[tuple[bool, bool]] = [(True, False)] + [(False, False)] * len(words)
    for end in range(1, len(words) + 1):
        for start in range(max(0, end - _LONGEST), end):
            ok, phrase_seen = reachable[start]
            if not ok:
                continue
            piece = words[start:end]
            if piece in _PHRASE_TOKENS:
                reachable[end] = (True, True)
                break
            if len(piece) == 1 and piece[0] in _ADDRESSEES:
                reachable[end] = (True, reachable[end][1] or phrase_seen)
    return reachable[-1] == (True, True)


def _is_emoji_only(text: str) -> bool:
    symbols = [c for c in text if not c.isspace()]
    return bool(symbols) and any(unicodedata.category(c) == "So" for c in symbols) and all(
        unicodedata.category(c) in _EMOJI_CATEGORIES for c in symbols
    )


class PrefilterStage(BaseStage):
    """Refuses texts too short or too long to be a fact, and pleasantries."""

    name = "prefilter"
    stateless = True

    class Options(BaseModel):
        min_length: int = Field(default=4, ge=1)
        max_length: int = Field(default=32_000, ge=1)
        pleasantries: bool = True


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        length = len(candidate.text)
        if length < self.options.min_length and not is_short_cjk_claim(reading(candidate.text)):
            return StageResult.reject(
                "prefilter.too_short",
                f"Rejected: too short ({length} characters, minimum {self.options.min_length}). "
                "Save one complete statement about the person, e.g. \"Jam lives in Athens\".",
            )
        if length > self.options.max_length:
            return StageResult.reject(
                "prefilter.too_long",
                f"Rejected: too long ({length} characters, maximum {self.options.max_length}). "
                "A memory is one durable fact, not a document: save the conclusion, or split "
                "it into separate facts, one per call.",
                redact=True,
            )
        if self.options.pleasantries and is_pleasantry(reading(candidate.text)):
            return StageResult.reject(
                "prefilter.pleasantry",
                "Rejected: a pleasantry, not a fact (greetings, thanks, acknowledgements and "
                "emoji carry nothing to remember). Save only durable facts about the person; "
                "if the message also held one, save that statement alone.",
            )
        return StageResult.passed()
