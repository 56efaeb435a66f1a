"""Granularity: one fact per save. Refuses profile dumps (`granularity.multiple_facts`).

Conservative by design: a text is several facts only when at least three of its clauses
(sentences, lines, list items, `;`-separated parts, or comma/"and" parts that start with a
verb) each carry a topic and together they touch at least three different topics (where one
lives, work, tastes, pets, family, age, languages, tools, hobbies, contact, education, health),
or when it holds three or more `Field: value` lines. Language-independent counts catch the
rest (D-198): four or more `field: value` segments in one line (`；`, `;`, `.` or `|`
between them, any script, full-width colons too: "姓名：王磊；年龄：35；…"); a label that
names an aggregate ("Interests:", "Ενδιαφέροντα:", "兴趣：") before five or more listed
items; a JSON array of five or more facts; or, with no label and not in the first person,
six or more short comma- or "and"-separated parts of which five hold two or more words and
open with five different words ("Lebt in Köln, arbeitet bei der Telekom, verheiratet, zwei
Töchter, fährt Rennrad, isst kein Fleisch").
A fact with its reason ("I moved to Berlin in May. The job is there.") or a list of parts of
one thing (a checklist, "hiking, cycling and swimming", "Our stack: Go, Postgres, Redis,
Kafka, React") passes.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from jamgate_core import BaseStage, Candidate, StageContext, StageResult
from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._text import reading, sentences

_TOPICS: dict[str, re.Pattern[str]] = {
    topic: lazy_compile(pattern, re.IGNORECASE)
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
_FIELD = lazy_compile(r"^\s*[-*•]?\s*[^\W\d_][\w .'’-]{0,24}[:：]\s*\S", re.MULTILINE)
# One `field: value` segment of a line, in any script ("Edad: 33", "年龄：35").
_SEGMENT_FIELD = lazy_compile(
    r"^\s*[-*•]?\s*[^\W\d_][^\n:：;；,，、|]{0,24}?(?<!\d)\s*[:：]\s*[^\s/]"
)
_SEGMENT_SPLIT = lazy_compile(r"[;；|,，、]|(?<=[^\W\d])\.\s+|(?<=\d)\.\s+(?=[^\W\d])|。")
_MIN_SEGMENTS = 4
# Labels that announce many facts or topics at once, in the languages the gate reads.
_AGGREGATE_LABEL = lazy_compile(
    r"\b(?:facts?|profile|about|info|information|details|summary|memories|bio|interests?|"
    r"hobbies|topics|likes|passions|interessen|hobbys|themen|steckbrief|intérêts?|loisirs|"
    r"profil|intereses|aficiones|pasatiempos|gustos|perfil|interessi|passatempi|profilo|"
    r"interesses|passatempos|ενδιαφέροντα|χόμπι|προφίλ|интересы|хобби|увлечения|профиль|"
    r"ilgi alanları|hobiler|profil|zainteresowania|intressen|hobby's|interesses)\b|"
    r"兴趣|興趣|爱好|愛好|興味|趣味|관심사|취미|اهتمامات|هوايات|रुचि|शौक",
    re.IGNORECASE,
)
_LABEL = lazy_compile(r"^([^:：\n]{1,40})[:：]\s*(.+)$", re.DOTALL)
# A list: comma-separated items, the last of which may hold the conjunction ("…, a and b").
_LIST_SPLIT = lazy_compile(r"\s*[,，、،;；]\s*")
_LAST_AND = lazy_compile(r"\s+(?:and|und|et|y|e|и|και|ve|en|och|og|i|dan|và|ja|és)\s+|和|と")
_JSON_STRING = lazy_compile(r"[\[,]\s*\"([^\"\n]{1,80})\"(?=\s*[,\]])")
_MIN_ITEMS = 5
_MIN_CLAUSE_PARTS = 6
_MIN_CLAUSE_ITEMS = 5
_MAX_CLAUSE_WORDS = 5
_FIRST_PERSON = lazy_compile(
    r"^(?:i|i'm|i’m|my|we|our|ich|mein\w*|wir|je|j['’]|mon|ma|mes|nous|yo|mi|mis|nosotros|"
    r"io|il mio|la mia|eu|meu|minha|εγώ|μου|я|мой|моя|мы|ik|mijn|jag|min|ben|benim|"
    r"ja|moje?|moja)\b|^[我私僕俺]",
    re.IGNORECASE,
)
# A flat JSON object of profile fields: `{"name": "Jam", "city": "Athens", …}`.
_JSON_FIELD = lazy_compile(r"\"[\w .-]{1,30}\"\s*:\s*(?:\"|-?\d|true\b|false\b|\[)")
_ITEM = lazy_compile(r"^\s*(?:[-*•]|\d+[.)])\s+(.*)$", re.MULTILINE)
_INTRO_AGGREGATE = lazy_compile(
    r"\b(?:facts?|profile|about|info|information|details|notes|summary|memories|bio)\b",
    re.IGNORECASE,
)
_VERB_START = lazy_compile(
    r"^(?:has|have|had|is|was|works?|lives?|likes?|loves?|enjoys?|speaks?|plays?|owns?|drives?|"
    r"uses?|prefers?|hates?|studied|studies|moved|born|eats?|drinks?|vegetarian|vegan)\b",
    re.IGNORECASE,
)
_CLAUSE_SPLIT = lazy_compile(r";|,\s*(?:and\s+)?|\s+and\s+")


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


def _field_segments(text: str) -> int:
    """The most `field: value` segments on one line of `text`."""
    return max((sum(1 for seg in _SEGMENT_SPLIT.split(line) if _SEGMENT_FIELD.match(seg))
                for line in text.splitlines()), default=0)


def _listed_items(body: str) -> list[str]:
    """The items of a list: comma-separated, the conjunction split off the last one only."""
    items = _LIST_SPLIT.split(body)
    items[-1:] = _LAST_AND.split(items[-1], maxsplit=1)
    return [item.strip(" .。!") for item in items if item.strip(" .。!")]


def _json_fact_list(text: str) -> bool:
    """A JSON array of five or more strings, four of several words: a list of facts."""
    strings = _JSON_STRING.findall(text) if text.lstrip()[:1] in "{[" else []
    return len(strings) >= _MIN_ITEMS and sum(" " in s for s in strings) >= _MIN_ITEMS - 1


def _aggregate_list(text: str) -> bool:
    """A label naming an aggregate ("Interests:") before five or more listed items."""
    label = _LABEL.match(text.strip())
    if label is None or not _AGGREGATE_LABEL.search(label.group(1)):
        return False
    body = label.group(2)
    lines = [line for line in body.splitlines() if line.strip()]
    return len(lines) >= _MIN_ITEMS or len(_listed_items(body)) >= _MIN_ITEMS


def _clause_list(text: str) -> bool:
    """Six or more short listed parts (five words at most), five of several words opening
    with different words, in a text with no label and not in the first person: facts strung
    together, not a sentence with its clauses."""
    stripped = text.strip()
    if "\n" in stripped or ":" in stripped or "：" in stripped or _FIRST_PERSON.match(stripped):
        return False
    items = [item.split() for item in _listed_items(stripped)]
    if len(items) < _MIN_CLAUSE_PARTS or max(map(len, items)) > _MAX_CLAUSE_WORDS:
        return False
    long_items = [words for words in items if len(words) >= 2]
    return (len(long_items) >= _MIN_CLAUSE_ITEMS
            and len({words[0].lower() for words in long_items}) >= _MIN_CLAUSE_ITEMS)


def multiple_facts(text: str, min_clauses: int = 3, min_topics: int = 3) -> bool:
    """Whether `text` is several independent facts (see the module docstring)."""
    if len(_FIELD.findall(text)) >= 3 or _field_segments(text) >= _MIN_SEGMENTS:
        return True
    if _aggregate_list(text) or _clause_list(text) or _json_fact_list(text):
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
    stateless = True

    class Options(BaseModel):
        min_clauses: int = Field(default=3, ge=2)
        min_topics: int = Field(default=3, ge=2)


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        options = self.options
        if not multiple_facts(reading(candidate.text), options.min_clauses, options.min_topics):
            return StageResult.passed()
        return StageResult.reject(
            "granularity.multiple_facts",
            "Rejected: several independent facts in one save. Save one fact per call (each "
            "with its own type and subject), e.g. \"Jam lives in Athens\" and then \"Jam works "
            "at Acme\", so each can be recalled, updated and retired on its own.",
        )
