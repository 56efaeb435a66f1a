"""Granularity: one fact per save. Refuses profile dumps (`granularity.multiple_facts`).

Conservative by design: a text is several facts only when at least three of its clauses
(sentences, lines, list items, `;`-separated parts, or comma/"and" parts that start with a
verb) each carry a topic and together they touch at least three different topics (where one
lives, work, tastes, pets, family, age, languages, tools, hobbies, contact, education, health),
or when it holds three or more `Field: value` lines. A fact with its reason ("I moved to Berlin
in May. The job is there.") or a list of parts of one thing (a checklist, "hiking, cycling and
swimming") passes.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from jamgate_core import BaseStage, Candidate, StageContext, StageResult
from jamgate_stages._text import sentences

_TOPICS: dict[str, re.Pattern[str]] = {
    topic: re.compile(pattern, re.IGNORECASE)
    for topic, pattern in {
        "name": r"\bname\b|\bnamed\b|\bcall(?:ed)? me\b|\bgoes by\b",
        "location": r"\b(?:lives?|living|lived|resides?|based in|located|moved to|"
                    r"(?:is|am|are|comes) from|city|home town|hometown)\b|"
                    r"μένει|μένω|ζει|wohnt|vive|habite|живёт|живу",
        "work": r"\b(?:works?|working|worked|job|employer|employed|company|engineer|developer|"
                r"designer|manager|occupation|career|freelances?|profession|colleagues?)\b|"
                r"δουλεύει|εργάζεται|arbeitet|trabaja|travaille|работает",
        "taste": r"\b(?:likes?|loves?|enjoys?|favou?rite|prefers?|hates?|dislikes?|drinks?|"
                 r"eats?|vegetari\w*|végétarien\w*|vegan\w*|fan of)\b|αρέσει|mag|gusta|aime|любит",
        "pets": r"\b(?:dogs?|cats?|pets?|puppy|kitten|parrot|hamster)\b|σκύλο|γάτα|Hund|perro|"
                r"chien|собак",
        "family": r"\b(?:wife|husband|partner|spouse|sister|brother|mother|father|mom|mum|dad|"
                  r"son|daughter|kids?|children|married|girlfriend|boyfriend|parents?)\b",
        "age": r"\b(?:age|aged|years? old|born|birthday)\b",
        "language": r"\b(?:speaks?|language|languages|native|fluent)\b",
        "tools": r"\b(?:uses?|using|linux|macos|windows|ubuntu|editor|vim|emacs|neovim|vs code|"
                 r"laptop|operating system)\b",
        "hobby": r"\b(?:plays?|hobby|hobbies|guitar|piano|hiking|running|cycling|reading|"
                 r"swimming|climbing|spielt|joue|juega|toca|suona|gioca)\b",
        "contact": r"\b(?:email|e-mail|phone|address)\b|@[\w-]+\.\w+",
        "education": r"\b(?:studied|studies|degree|university|college|school|graduated)\b",
        "health": r"\b(?:allergic|allergy|allergies|diabetic|asthma|injury)\b",
        "vehicle": r"\b(?:drives?|car|bike|motorbike|yaris)\b",
    }.items()
}
_FIELD = re.compile(r"^\s*[-*•]?\s*[A-Z][\w ]{0,24}:\s*\S", re.MULTILINE)
# A flat JSON object of profile fields: `{"name": "Jam", "city": "Athens", …}`.
_JSON_FIELD = re.compile(r"\"[\w .-]{1,30}\"\s*:\s*(?:\"|-?\d|true\b|false\b|\[)")
_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(.*)$", re.MULTILINE)
_INTRO_AGGREGATE = re.compile(
    r"\b(?:facts?|profile|about|info|information|details|notes|summary|memories|bio)\b",
    re.IGNORECASE,
)
_VERB_START = re.compile(
    r"^(?:has|have|had|is|was|works?|lives?|likes?|loves?|enjoys?|speaks?|plays?|owns?|drives?|"
    r"uses?|prefers?|hates?|studied|studies|moved|born|eats?|drinks?|vegetarian|vegan)\b",
    re.IGNORECASE,
)
_CLAUSE_SPLIT = re.compile(r";|,\s*(?:and\s+)?|\s+and\s+")


def topics(text: str) -> set[str]:
    """The topics a clause touches."""
    return {topic for topic, pattern in _TOPICS.items() if pattern.search(text)}


def clauses(text: str) -> list[str]:
    """Sentences, lines and list items; within one, `;` parts and verb-led comma parts."""
    out: list[str] = []
    for sentence in sentences(text):
        item = _ITEM.match(sentence)
        body = item.group(1) if item else sentence
        parts = [p.strip() for p in _CLAUSE_SPLIT.split(body) if p.strip()]
        if len(parts) > 1 and (";" in body or all(_VERB_START.match(p) for p in parts[1:])):
            out.extend(parts)
        else:
            out.append(body)
    return out


def multiple_facts(text: str, min_clauses: int = 3, min_topics: int = 3) -> bool:
    """Whether `text` is several independent facts (see the module docstring)."""
    if len(_FIELD.findall(text)) >= 3:
        return True
    if text.lstrip().startswith("{") and len(_JSON_FIELD.findall(text)) >= 3:
        return True
    items = _ITEM.findall(text)
    intro = text.split("\n", 1)[0]
    if len(items) >= 3 and not _ITEM.match(intro) and intro.rstrip().endswith(":") and not (
        _INTRO_AGGREGATE.search(intro)
    ):
        return False  # "Jam's deploy checklist:" followed by its steps: one thing.
    parts = clauses(text)
    if len(parts) < min_clauses:
        return False
    topical = [found for found in (topics(c) for c in parts) if found]
    if len(topical) < min_clauses:
        return False
    union: set[str] = set().union(*topical)
    return len(union) >= min_topics


class GranularityStage(BaseStage):
    """Refuses several independent facts saved as one."""

    name = "granularity"

    class Options(BaseModel):
        min_clauses: int = Field(default=3, ge=2)
        min_topics: int = Field(default=3, ge=2)


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        if not multiple_facts(candidate.text, self.options.min_clauses, self.options.min_topics):
            return StageResult.passed()
        return StageResult.reject(
            "granularity.multiple_facts",
            "Rejected: several independent facts in one save. Save one fact per call (each "
            "with its own type and subject), e.g. \"Jam lives in Athens\" and then \"Jam works "
            "at Acme\", so each can be recalled, updated and retired on its own.",
        )
