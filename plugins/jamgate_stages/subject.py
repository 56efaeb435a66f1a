"""Subject: derive a subject for a save that came without one, conservatively.

A wrong subject retires a true memory; a missing one never does. So the stage declines (leaves
no subject) on texts over 300 characters, on texts that match two topic rules, on negations
("doesn't use Windows"), on non-Latin openings, and whenever it cannot tell whose fact it is.
Rules, in order (on the lowercased text):
1. The holder: the person (I, my, he, user, a subject-less verb), someone in their life
   ("my sister", "Jam's dog"), a named person ("Caroline …", with `prefix_names`), or a thing
   ("the office …"). Anyone but the person prefixes the subject: "my sister lives in Berlin" →
   `sister-location`, so it never retires "I live in Athens".
2. One keyword rule (location, operating-system, email, timezone, name, programming-language,
   current-project); two or more ⇒ no subject.
3. Otherwise the possessive/copula phrase of a single sentence ("my favorite color is blue" →
   `favorite-color`); "X is called/named Y" → `x-name`; a lone relation ("my sister is a
   doctor") ⇒ no subject.
A caller-given subject is never changed.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from jamgate_core import BaseStage, Candidate, StageContext, StageResult, canonical_subject
from jamgate_stages._text import sentences, wordset

_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.ASCII))
    for name, pattern in (
        ("location", r"\b(?:lives?|living|resides?)\s+(?:in|at|on|near|with|outside)\b|"
                     r"\bbased (?:in|out of)\b|\blocated (?:in|at)\b"),
        ("operating-system", r"\boperating system\b|\b(?:linux|macos|ubuntu|debian|fedora|"
                             r"archlinux|arch linux)\b|(?<!the )\bwindows\b"),
        ("email", r"\be-?mail\b|[\w.+-]+@[\w-]+\.[\w.-]+"),
        ("timezone", r"\btime ?zone\b|\butc\s*[+\-\u2212]?\s*\d"),
        ("name", r"\bname is\b|\bcall me\b|\bgoes by\b|\bgo by\b|^(?:i'm|i am) called\b"),
        ("programming-language", r"\b(?:codes?|coding|programs|programming|develops)\s+in\b|"
                                 r"\bprogramming language\b"),
        ("current-project", r"\bcurrent project\b|^(?:i'm|i am|i've been|we're|we are|"
                            r"(?:the )?user is|currently) (?:currently )?working on\b"),
    )
)
_RELATIONS: frozenset[str] = wordset(
    """wife husband partner spouse boyfriend girlfriend fiance fiancee sister brother sibling
    siblings mother mom mum father dad parents son daughter kid kids child children baby
    grandmother grandfather grandma grandpa aunt uncle cousin niece nephew friend boss
    manager colleague coworker roommate flatmate neighbor neighbour teammate landlord doctor
    dentist therapist ex dog cat pet puppy kitten"""
)
_ADJECTIVES = wordset(
    """older younger little big best new old eldest youngest oldest twin late former"""
)
_SELF = wordset(
    """i i'm im i've i'd me we we're user he she they he's she's"""
)
_POSSESSIVES = wordset(
    """my our his her their your"""
)
_ARTICLES = wordset(
    """the a an this that"""
)
_LEADING_VERBS = wordset(
    """lives live living works work worked likes like loves love prefers prefer uses use codes
    code writes write is am was has have had speaks speak moved based located working
    building developing goes go enjoys enjoy hates hate wants want needs need owns own drives
    drive plays play studied studies born"""
)
_STOP = wordset(
    """a an and are as at be by for from has have in is it its of on or that the their this to
    was were with"""
)
_WORD = re.compile(r"[a-z0-9][a-z0-9'’-]*", re.ASCII)
_COPULA = re.compile(
    r"^(my|your|their|his|her|our|its|the|[a-z]+['’]s)\s+((?:[a-z]+\s+){0,2}?[a-z]+)"
    r"\s+(?:is|are|was|were)\s+(\w+)",
    re.ASCII,
)
_MAX_COPULA_WORDS = 14
# Words that start a sentence but never name its holder.
_OPENERS = wordset(
    """during after before when while since although though yesterday today tonight recently
    lately last next in on at for with as if because both all some every each most many one
    two there here it this these those what how why where who also then so but and or once
    later earlier now currently usually sometimes often always never"""
)
# Words a subject phrase never contains.
_FUNCTION = wordset(
    """he she they it we you i him her them his their our your my when while but because which
    who that where after before during since than then so very more most"""
)
_NAMING = frozenset({"called", "named"})
_NEGATION = re.compile(r"\b(?:not|never|no|don't|doesn't|didn't|isn't|aren't|won't|nor)\b|n't\b")
_CHANGE = re.compile(r"\bno longer\b|\bnot anymore\b|\banymore\b")

Holder = tuple[str, str | None]  # ("self" | "other" | "unknown", prefix)


def _possessor(word: str) -> str | None:
    if word.endswith(("'s", "’s")):
        return word[:-2]
    return None


def holder(lowered: str, prefix_names: bool = True) -> Holder:
    """Whose fact this is, and the prefix its subject takes."""
    words = _WORD.findall(lowered[:120])
    if not words or not lowered.lstrip()[:1].isascii():
        return "unknown", None
    first, rest = words[0], words[1:4]
    if first == "the" and rest[:1] in (["user"], ["user's"]):
        first, rest = rest[0], rest[1:]
    owner = _possessor(first)
    if first in _POSSESSIVES or owner is not None:
        head = next((w for w in rest if w not in _ADJECTIVES), "")
        head = _possessor(head) or head
        relation = head if head in _RELATIONS else None
        named = owner if owner and owner != "user" and prefix_names else None
        if relation:
            return "other", "-".join(p for p in (named, relation) if p)
        return ("other", named) if named else ("self", None)
    if first in _SELF or first in _LEADING_VERBS:
        return "self", None
    if first in _OPENERS:
        return "unknown", None
    if first in _ARTICLES:
        noun = next((w for w in rest if w not in _ADJECTIVES), None)
        return ("other", noun) if noun else ("unknown", None)
    return ("other", first) if prefix_names else ("self", None)


def derive_subject(text: str, max_length: int = 300, prefix_names: bool = True) -> str | None:
    """The subject a subject-less save gets, or None (see the module docstring)."""
    lowered = text.lower().strip()
    if len(lowered) > max_length:
        return None
    if _NEGATION.search(lowered) and not _CHANGE.search(lowered):
        return None
    kind, prefix = holder(lowered, prefix_names)
    if kind == "unknown":
        return None
    matched = [name for name, pattern in _RULES if pattern.search(lowered)]
    single = len(sentences(text)) == 1 and len(lowered.split()) <= _MAX_COPULA_WORDS
    copula = _COPULA.search(lowered) if single else None
    if len(matched) >= 2:
        return None
    if matched:
        rule = matched[0]
        if rule == "name" and copula and copula.group(3) in _NAMING:
            return _copula_subject(copula, prefix_names, naming=True)
        if rule == "name" and kind == "self" and not re.search(
            r"\bmy name is\b|\bcall me\b|\bi go by\b|\bgoes by\b|\bname is\b", lowered
        ):
            return None
        return canonical_subject("-".join(p for p in (prefix, rule) if p))
    if copula is None:
        return None
    if copula.group(3).endswith("ing"):
        return None  # "X is doing/learning …": an activity, not an attribute's value.
    return _copula_subject(copula, prefix_names, naming=copula.group(3) in _NAMING)


def _copula_subject(match: re.Match[str], prefix_names: bool, naming: bool) -> str | None:
    determiner, phrase = match.group(1), match.group(2)
    kept = [w for w in phrase.split() if w not in _STOP]
    if any(w in _FUNCTION for w in kept):
        return None
    if not kept or len(kept) > 3 or (len(kept) == 1 and len(kept[0]) < 3):
        return None
    if kept[-1] in _RELATIONS and not naming:
        return None  # "my sister is a doctor": which attribute of the sister is unknown.
    owner = _possessor(determiner)
    parts = [owner] if owner and owner != "user" and prefix_names else []
    parts += kept
    if naming:
        parts.append("name")
    return canonical_subject("-".join(parts))


class SubjectStage(BaseStage):
    """Gives a subject-less save a derived subject when one is clear; never overrides one."""

    name = "subject"

    class Options(BaseModel):
        max_length: int = Field(default=300, ge=1)
        prefix_names: bool = True


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        if candidate.subject_given or candidate.subject:
            return StageResult.passed()
        subject = derive_subject(candidate.text, self.options.max_length,
                                 self.options.prefix_names)
        if subject is None:
            return StageResult.passed()
        return StageResult.passed(updates={"subject": subject})
