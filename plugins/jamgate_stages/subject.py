"""Subject: derive a subject for a save that came without one, conservatively.

A wrong subject retires a true memory; a missing one never does. So the stage declines (leaves
no subject) on texts over 300 characters, on texts that match two topic rules, on negations
("doesn't use Windows"), on statements about a closed past ("I worked at Acme from 2019 to
2023", `_time.is_past`, D-119), on scripts other than Latin and Greek, and whenever it cannot tell
whose fact it is. Rules, in order:
1. The holder (D-117): the person (I, my, he, user, "ich", "yo", "εγώ", a subject-less
   verb), someone in their life ("my sister", "mi amiga Ana", "Jam's dog", "η αδερφή μου"), a
   named person ("Caroline …", with `prefix_names`), or a thing ("the office …"). Anyone but
   the person prefixes the subject with whose fact it is: "my friend Anna lives in Oslo" →
   `friend-anna-location`, "Kenji lives in Tokyo" → `kenji-location`, so another person's
   fact never retires the person's own or a third person's. Relations are named in English.
2. One keyword rule (D-118: location, employer, operating-system, editor, email, timezone, name,
   programming-language, current-project); two or more ⇒ no subject. Location and employer
   read en, de, fr, es, it, pt and el, with the first-person updates ("I moved to Thessaloniki",
   "I started working at Acme", "Ich arbeite jetzt bei …", "Me mudé a …"): an update verb
   needs a name after it, so "moved to the backend team" is no new home.
3. Otherwise the possessive/copula phrase of a single sentence ("my favorite color is blue" →
   `favorite-color`); "X is called/named Y" → `x-name`; a lone relation, named or not ("my
   sister is a doctor", "my friend Anna is a nurse") ⇒ no subject.
A caller-given subject is never changed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from datetime import datetime

from pydantic import BaseModel, Field

from jamgate_core import BaseStage, Candidate, StageContext, StageResult, canonical_subject
from jamgate_stages import _subject_words as lang
from jamgate_stages._compound import holds_several
from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._slot_phrases import slot_phrase
from jamgate_stages._text import fold, reading, sentences, wordset
from jamgate_stages._time import is_past

_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, lazy_compile(pattern, re.ASCII))
    for name, pattern in (
        # The person living there now, not a wish or a feeling about living somewhere ("I'd
        # like to live in Spain", "I love living near the sea", D-260): "live" not after "to"
        # or a modal, "living" only after a form of "be" (or opening the text).
        ("location", r"(?<!\bto )(?<!would )(?<!could )(?<!should )(?<!\bd )"
                     r"\b(?:lives?|resides?)\s+(?:in|at|on|near|with|outside)\b|"
                     r"(?:^|\b(?:am|is|are|been|m|re|s)\s+(?:[a-z]+\s+)?)living\s+"
                     r"(?:in|at|on|near|with|outside)\b|"
                     r"\bbased (?:in|out of)\b|\blocated (?:in|at)\b"),
        ("operating-system", r"\boperating system\b|\b(?:linux|macos|ubuntu|debian|fedora|"
                             r"archlinux|arch linux)\b|(?<!the )\bwindows\b"),
        ("editor", r"\b(?:vim|neovim|nvim|emacs|vs ?code|vscode|sublime text|helix|intellij|"
                   r"pycharm|webstorm)\b"),
        ("email", r"\be-?mail\b|[\w.+-]+@[\w-]+\.[\w.-]+"),
        ("timezone", r"\btime ?zone\b|\butc\s*[+\-\u2212]?\s*\d"),
        ("name", r"\bname is\b|\bcall me\b|\bgoes by\b|\bgo by\b|^(?:i'm|i am) called\b"),
        ("programming-language", r"\b(?:codes?|coding|programs|programming|develops)\s+in\b|"
                                 r"\bprogramming language\b|\b(?:switched|moved|migrated)\s+"
                                 r"(?:from\s+\S+\s+)?to\s+(?:python|rust|go|golang|java|kotlin|"
                                 r"typescript|javascript|ruby|elixir|swift|haskell|scala|php)\b"),
        ("current-project", r"\bcurrent project\b|^(?:i'm|i am|i've been|we're|we are|"
                            r"(?:the )?user is|currently) (?:currently )?working on\b"),
    )
)
# Rules read on the text as written (any of the seven languages; some need a name after).
_WORLD_RULES: tuple[tuple[str, lang.Rules], ...] = (
    ("location", lang.LOCATION), ("employer", lang.EMPLOYER),
)
_ADJECTIVES = wordset(
    """older younger little big best new old eldest youngest oldest twin late former große
    kleine kleiner großer ältere ältester jüngere jüngster beste bester petit petite grand grande
    aîné aînée cadet cadette meilleur meilleure mayor menor mejor pequeño pequeña minore maggiore
    piccolo piccola migliore mais velho velha novo nova melhor caçula μικρή μικρός μικρότερη
    μεγάλη μεγάλος μεγαλύτερη καλύτερη καλύτερος"""
)
_ARTICLES = wordset(
    """the a an this that"""
)
_LEADING_VERBS = wordset(
    """lives live living works work worked likes like loves love prefers prefer uses use codes
    code writes write is am was has have had speaks speak moved based located working
    building developing goes go enjoys enjoy hates hate wants want needs need owns own drives
    drive plays play studied studies born started switched relocated"""
) | lang.LEADING_VERBS
_STOP = wordset(
    """a an and are as at be by for from has have in is it its of on or that the their this to
    was were with"""
)
_TOKEN = lazy_compile(r"[^\W_][\w'’-]*")
_ELIDED = lazy_compile(r"^(j|l|n|d|m|t|s|qu)['’](\w.*)$", re.IGNORECASE)
_COPULA = lazy_compile(
    r"^(my|your|their|his|her|our|its|the|[a-z]+['’]s)\s+((?:[a-z]+\s+){0,2}?[a-z]+)"
    r"\s+(?:is|are|was|were)\s+(\S+)",
    re.ASCII,
)
_MAX_COPULA_WORDS = 14
_THE_USERS = lazy_compile(r"^the\s+user['’]s\s+")
_USER_CALLED = lazy_compile(r"^(?:the\s+)?user\s+is\s+(?:called|named)\s+(?!after\b)")
# Words that date the value, not name the slot: "my new phone number is …" updates
# `phone-number` (D-264). "old" and "former" stay: they name a past slot, not the present one.
_RECENT = wordset("""new current latest updated present recent newest""")
# Words before a slot's verb that make it a wish, plan or feeling, not the present (D-260).
_WISH = wordset(
    """to would could should might may of about love like enjoy hate miss prefer want wants
    hope hopes dream dreams imagine considering thinking plan plans planning"""
)
# Words that start a sentence but never name its holder.
_OPENERS = wordset(
    """during after before when while since although though yesterday today tonight recently
    lately last next in on at for with as if because both all some every each most many one
    two there here it this these those what how why where who also then so but and or once
    later earlier usually sometimes often always never heute gestern damals dann während nach
    vor als wenn aujourd'hui hier pendant après avant quand hoy ayer durante después antes
    cuando oggi ieri dopo quando hoje ontem depois σήμερα χθες όταν μετά πριν κατά"""
)
# Words that open a time before the holder ("Since March I've been living in …", "Seit Mai
# wohne ich …"): the holder is read after them, where a person or a possessive follows (D-356).
_TIME_OPENERS = wordset(
    """since starting last this in recently lately nowadays these yesterday seit letzten
    letztes depuis desde dal dalla από sinds"""
)
# Words a subject phrase never contains.
_FUNCTION = wordset(
    """he she they it we you i him her them his their our your my when while but because which
    who that where after before during since than then so very more most"""
)
_NAMING = frozenset({"called", "named"})
# Possessives of a third person: before a relation they name someone in the person's life
# ("her sister"), before anything else they leave the owner unclear.
THIRD_PERSON = frozenset({"his", "her", "their"})

Holder = tuple[str, str | None]  # ("self" | "other" | "thing" | "unknown", prefix)


def _words(text: str) -> list[str]:
    """Words as written, French elisions split off ("j'habite" → "j'", "habite")."""
    out: list[str] = []
    for word in _TOKEN.findall(text):
        word = word.rstrip("'’-")
        elided = _ELIDED.match(word)
        if elided and not word.lower().endswith(("'s", "’s")):
            out += [elided.group(1) + "'", elided.group(2)]
        elif word:
            out.append(word)
    return out


def _possessor(word: str) -> str | None:
    if word.endswith(("'s", "’s")):
        return word[:-2]
    return None


def _readable(text: str) -> bool:
    """Latin or Greek at the opening: the scripts the holder rules read."""
    first = next((c for c in text.lstrip() if c.isalpha()), "")
    if not first:  # no letter at all ("+30 210 1234567"): nothing for the holder rules to read
        return False
    return first.isascii() or unicodedata.name(first, "").startswith(("LATIN", "GREEK"))


def _is_name(word: str) -> bool:
    """A capitalised word that is not a verb or function word: a person's name."""
    lowered = word.lower()
    return (word[:1].isupper() and word.replace("-", "").isalpha() and lowered not in _STOP
            and lowered not in _LEADING_VERBS and lowered not in lang.SELF
            and lowered not in lang.NOW)


def _relation_holder(words: list[str], at: int, owner: str | None) -> Holder | None:
    """Someone in the person's life: the relation at `words[at]`, and the name after it."""
    lowered = [w.lower() for w in words]
    head = next((i for i in range(at, min(at + 3, len(words)))
                 if lowered[i] not in _ADJECTIVES), None)
    if head is None:
        return None
    relation = lang.RELATIONS.get(_possessor(lowered[head]) or lowered[head])
    if relation is None:
        return None
    after = head + 1
    if after + 1 < len(words) and lowered[after] in lang.GREEK_MY:
        after += 2 if lowered[after + 1] in lang.GREEK_ARTICLES else 1
    name = None
    if after < len(words) and _is_name(_possessor(words[after]) or words[after]):
        if _possessor(words[after]):
            return "unknown", None  # "my friend Anna's husband": whose fact is unclear.
        name = fold(words[after])
    return "other", "-".join(p for p in (owner, relation, name) if p)


def _named_opening(words: list[str], text: str) -> bool:
    """Beyond ASCII, a name opens the text only when its verb or an apposition follows."""
    follows = words[1].lower() if len(words) > 1 else ""
    return _is_name(words[0]) and (follows in _LEADING_VERBS or "(" in text[:len(words[0]) + 3])


def _owner_after(words: list[str], at: int) -> str | None:
    """The owner named by "of" after a relation ("la mamma di Jam" → jam; the user → None)."""
    if at + 1 < len(words) and words[at].lower() in lang.OF and _is_name(words[at + 1]):
        owner = fold(words[at + 1])
        return None if owner in ("nutzers", "benutzers", "user") else owner
    return None


# The user phrases as `_words` splits them ("l'utente" → "l' utente"), computed once.
_USER_PHRASES_SPACED = tuple((phrase, re.sub("['’]", "' ", phrase)) for phrase in lang.USER_PHRASES)


def _person_at(lowered: list[str], places: Iterable[int]) -> int | None:
    """The first of `places` where a person or a possessive stands ("since June *I* …")."""
    return next((k for k in places if k < len(lowered)
                 and (lowered[k] in lang.SELF or lowered[k] in lang.POSSESSIVES)), None)


def _rest(words: list[str], at: int) -> str:
    """The text from word `at` on, elisions joined again ("j' habite" → "j'habite")."""
    return re.sub(r"(['’]) ", r"\1", " ".join(words[at:]))


def holder(text: str, prefix_names: bool = True) -> Holder:
    """Whose fact this is, and the prefix its subject takes."""
    if not _readable(text):
        return "unknown", None
    words = _words(text[:120])
    lowered_text = " ".join(words).lower()
    for phrase, spaced in _USER_PHRASES_SPACED:
        if lowered_text.startswith(spaced + " ") and not phrase.startswith("the "):
            words = ["user", *words[len(spaced.split()):]]
            break
    lowered = [w.lower() for w in words]
    if not words:
        return "unknown", None
    if lowered[0] == "the" and lowered[1:2] in (["user"], ["user's"], ["user’s"]):
        words, lowered = words[1:], lowered[1:]
    if lowered[0] in lang.POSSESSIVE_ARTICLES and lowered[1:2] and (
        lowered[1] in lang.POSSESSIVES
    ):
        words, lowered = words[1:], lowered[1:]
    if any(w.endswith(":") for w in text.split()[:3]):
        return "unknown", None  # "Profile: …", "Nutzerprofil: …": a label, not a holder.
    first = lowered[0]
    owner = _possessor(first)
    if first in lang.POSSESSIVES or owner is not None:
        named = fold(owner) if owner and owner != "user" and prefix_names else None
        found = _relation_holder(words, 1, named)
        if found:
            return found
        if first in THIRD_PERSON:
            return "unknown", None  # "Her favourite film is …": whose is unclear (D-429)
        return ("other", named) if named else ("self", None)
    if first in lang.GREEK_ARTICLES and len(words) > 1:
        if lowered[1] in lang.RELATIONS:
            return _relation_holder(words, 1, _owner_after(words, 2)) or ("unknown", None)
        if lowered[1] in ("χρήστης", "χρήστρια"):
            return "self", None
        if _is_name(words[1]):
            return ("other", fold(words[1])) if prefix_names else ("self", None)
        if any(w in lang.GREEK_MY for w in lowered[2:4]):
            return "self", None  # "Το αγαπημένο μου φαγητό …": the person's own (D-305)
        return "thing", fold(words[1])
    if first in lang.SELF or first in _LEADING_VERBS:
        return "self", None
    if first in lang.NOW and any(w in lang.SELF or w in _LEADING_VERBS for w in lowered[1:3]):
        return "self", None
    if first in _TIME_OPENERS and (after := _person_at(lowered, range(1, 6))) is not None:
        return holder(_rest(words, after), prefix_names)
    if first in _OPENERS or first in lang.NOW:
        return "unknown", None
    if first in lang.ARTICLES and len(words) > 1 and first not in ("the", "a", "an"):
        if lowered[1] in lang.RELATIONS:
            return _relation_holder(words, 1, _owner_after(words, 2)) or ("unknown", None)
        return "thing", fold(lowered[1])
    if first in _ARTICLES:
        noun = next((w for w in lowered[1:4] if w not in _ADJECTIVES), None)
        return ("thing", noun) if noun else ("unknown", None)
    if lowered[1:2] and lowered[1] in lang.FIRST_PERSON_VERBS:
        return "self", None  # an adverb, then a first person's verb ("Todavía vivo …", D-419)
    if not first.isascii() and not _named_opening(words, text):
        return "unknown", None
    # the classifier package imports this module
    from jamgate_stages.classifier.markers import named_person

    if (person := _person_at(lowered, (1, 2))) is not None and not named_person(words[0]):
        # An opening word that is no known name, then a person ("Actually I live in …",
        # "Eigentlich wohne ich …", "Ja, ich …"): the holder is read from the person (D-401).
        return holder(_rest(words, person), prefix_names)
    return ("other", fold(first)) if prefix_names else ("self", None)


def wished(text: str, start: int) -> bool:
    """Whether the words just before `start` make what follows a wish, a plan or a feeling
    rather than the person's present ("I'd love to work at …", "thinking of moving to …",
    D-260)."""
    before = [w.lower() for w in _words(text[max(0, start - 40):start])][-2:]
    return any(w in _WISH or w.endswith(("'d", "’d")) for w in before)


def _applies(pattern: re.Pattern[str], proper: bool | str, text: str) -> bool:
    """Whether the rule matches; a `proper` rule needs a name after it (not a tool's), an
    "org" rule a name or "a/an" and a workplace noun. A match after a wish is none."""
    for match in pattern.finditer(text):
        if wished(text, match.start()):
            continue
        if not proper:
            return True
        after = _words(text[match.end():match.end() + 60])
        if proper == "org" and after[:1] in (["a"], ["an"]) and any(
            w.lower() in lang.ORG_NOUNS for w in after[1:5]
        ):
            return True
        named = [w for w in after if w.lower() not in lang.NAME_ARTICLES][:1]
        if named and named[0][:1].isupper() and named[0].lower() not in lang.TECH:
            return True
    return False


def derive_subject(text: str, max_length: int = 300, prefix_names: bool = True,
                   now: datetime | None = None) -> str | None:
    """The subject a subject-less save gets, or None (see the module docstring)."""
    lowered = text.lower().strip()
    if len(lowered) > max_length:
        return None
    if lang.NEGATION.search(lowered) and not lang.CHANGE.search(lowered):
        return None
    if is_past(text, now):
        return None
    if (slot := slot_phrase(text)) is not None:
        return slot  # the whole text is the person's home or work (D-301)
    kind, prefix = holder(text.strip(), prefix_names)
    if kind == "unknown":
        return None
    matched = list(dict.fromkeys(
        [name for name, pattern in _RULES if pattern.search(lowered)]
        + [name for name, rules in _WORLD_RULES
           if any(_applies(pattern, proper, text) for pattern, proper in rules)]
    ))
    if kind == "thing" and "employer" in matched:
        return None  # "That works for me": a thing has no employer.
    single = len(sentences(text)) == 1 and len(lowered.split()) <= _MAX_COPULA_WORDS
    # "The user's employer is …" reads as "my employer is …" (D-403), "The user is called …"
    # as "my name is …" (D-428).
    mine = _USER_CALLED.sub("my name is ", _THE_USERS.sub("my ", lowered))
    copula = _COPULA.search(mine) if single else None
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
    kept = [w for w in phrase.split() if w not in _STOP and w not in _RECENT]
    if any(w in _FUNCTION for w in kept):
        return None
    if not kept or len(kept) > 3 or (len(kept) == 1 and len(kept[0]) < 3):
        return None
    if not naming and any(w in lang.RELATIONS for w in kept[-2:]):
        return None  # "my sister (Leda) is a doctor": which attribute of her is unknown.
    owner = _possessor(determiner)
    parts = [owner] if owner and owner != "user" and prefix_names else []
    parts += kept
    if naming:
        parts.append("name")
    return canonical_subject("-".join(parts))


class SubjectStage(BaseStage):
    """Gives a subject-less save a derived subject when one is clear; never overrides one."""

    name = "subject"
    stateless = True

    class Options(BaseModel):
        max_length: int = Field(default=300, ge=1)
        prefix_names: bool = True


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        if candidate.subject_given or candidate.subject:
            return StageResult.passed()
        text = reading(candidate.text)
        if holds_several(text):
            # Several facts, no one slot: a change of one of them must not retire the others
            # by recency on a subject (D-441).
            return StageResult.passed()
        subject = derive_subject(text, self.options.max_length,
                                 self.options.prefix_names, ctx.now)
        if subject is None:
            return StageResult.passed()
        return StageResult.passed(updates={"subject": subject})
