"""Near-duplicates: a save that says what a live memory already says is refused as
`possible_duplicate`; a close look-alike is stored and named in `related`.

It runs whenever the save retires nothing (D-044): not when the candidate's subject already has
records (supersede retires them or files the candidate as history) nor when its text key
matches an expired record (dedup revives it), subject given or not.

With an embedder, look-alikes are the nearest stored (passage) vectors, compared with the
candidate's own passage vector: the one embedding a save makes (D-145; the classifier reads the
same vector). The thresholds were measured on multilingual-e5-small with `passage:` on both
sides (docs/recall.md); another model needs its own. Without an embedder, a conservative
lexical check compares the set of words (CJK as bigrams) with the best keyword matches.

No cosine tells "same fact" from "same slot, new value" ("uses Windows" / "uses Linux"), so a
pair where each side has a number, version or name the other lacks is never a duplicate.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field, model_validator
from rapidfuzz.distance import OSA

from jamgate_core import BaseStage, Candidate, MemoryRecord, Related, StageContext, StageResult
from jamgate_stages._ending import ends
from jamgate_stages._frame import NUMBER_VALUES, PLAIN_NUMBER_WORDS
from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._nearest import nearest, search
from jamgate_stages._spelling import on_subject, word_forms
from jamgate_stages._subject_words import RELATIONS
from jamgate_stages._text import fold, is_cjk, reading, sentences, words, wordset
from jamgate_stages._value_words import value_swap
from jamgate_stages.change_words import declares_change
from jamgate_stages.classifier.markers import named_person
from jamgate_stages.subject import holder

_NUMBER = lazy_compile(r"\d+(?:[.,:]\d+)*")
_ORDINAL = lazy_compile(r"(\d)(?:st|nd|rd|th)\b", re.IGNORECASE)
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")
_STOP = wordset("""a an and are as at be by do does for from has have he her his i in is it its
me my of on or our she so that the their them they this to was we were with you your""")


def values(text: str) -> frozenset[str]:
    """What makes a statement specific: numbers and versions (dates normalised), number
    words ("two" / "three", D-410), words with digits, and names (capitalised words past a
    sentence's first, Latin-script words in a text of another script)."""
    found: set[str] = set()
    normal = _ORDINAL.sub(r"\1", unicodedata.normalize("NFKC", text))
    found.update(_NUMBER.findall(normal))
    latin_text = all(not c.isalpha() or c.isascii() or "LATIN" in unicodedata.name(c, "")
                     for c in normal)
    for sentence in sentences(normal):
        for position, word in enumerate(words(sentence)):
            folded = fold(word)
            coded = any(ch.isdigit() for ch in word) and not word.isdigit()
            named = word[:1].isupper() and position > 0 and folded not in _STOP
            foreign = not latin_text and word.isascii() and word.isalpha() and len(word) > 1
            if folded in PLAIN_NUMBER_WORDS:
                found.add(NUMBER_VALUES[folded])  # "six" is the 6 of "6am" (D-410)
            elif coded or named or foreign or folded in _MONTHS:
                found.add(folded)
    return frozenset(found)


def _same_value(a: str, b: str) -> bool:
    """Two values that name the same thing: equal, or a 4+ character prefix of the other
    (`postgres` / `postgresql`)."""
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= 4 and long.startswith(short) and not short.isdigit()


def value_conflict(a: str, b: str) -> bool:
    """Each text has a value (number, version, name) the other lacks: an update, not a copy."""
    left, right = values(a), values(b)
    only_left = [x for x in left if not any(_same_value(x, y) for y in right)]
    only_right = [y for y in right if not any(_same_value(x, y) for x in left)]
    return bool(only_left and only_right)


@lru_cache(maxsize=1024)
def shingles(text: str) -> frozenset[str]:
    """Folded content words, CJK runs as character bigrams (single characters kept; memoised:
    a save compares its text with several look-alikes)."""
    out: set[str] = set()
    run = ""
    for word in [*words(fold(text)), ""]:
        if word and is_cjk(word[0]):
            run += word
            continue
        if run:
            out.update(run[i:i + 2] for i in range(len(run) - 1)) if len(run) > 1 else out.add(run)
            run = ""
        if word and word not in _STOP:
            out.add(word)
    return frozenset(out)


def length(text: str) -> float:
    """A text's length in words, a CJK character counting as half a word."""
    return sum(len(w) / 2 if is_cjk(w[0]) else 1 for w in words(text))


_VARIANT_LENGTH = 7  # words this long match a one-letter-longer or -shorter variant


def token_similarity(a: str, b: str) -> float:
    """Jaccard similarity of the two texts' `shingles`, where a long word of one text that
    the other lacks counts as shared with a variant of it there one letter longer or shorter
    ("favourite" / "favorite", "Thesaloniki", D-402), or one spelling of it ("colour" /
    "color", `_spelling.word_forms`, D-409). A changed letter is no variant:
    "walking" / "talking" are two hobbies."""
    left, right = shingles(a), shingles(b)
    if not left or not right:
        return 0.0
    shared = len(left & right)
    spare = list(right - left)
    for word in left - right:
        forms = word_forms(word)
        twin = next((other for other in spare if other in forms), None) if forms else None
        if twin is None and len(word) >= _VARIANT_LENGTH - 1:
            twin = next((other for other in spare if abs(len(word) - len(other)) == 1
                         and max(len(word), len(other)) >= _VARIANT_LENGTH
                         and OSA.distance(word, other, score_cutoff=1) <= 1), None)
        if twin is not None:
            spare.remove(twin)
            shared += 1
    return shared / (len(left) + len(right) - shared)


class NearDuplicateStage(BaseStage):
    """Refuses near-copies of live memories; names close look-alikes."""

    name = "near-duplicate"

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")

        # Measured on multilingual-e5-small, `passage:` on both sides (docs/recall.md). Past
        # `short_words` words, statements on one topic crowd above 0.95, so longer pairs use
        # the `long_` thresholds.
        duplicate_threshold: float = Field(default=0.95, gt=0, le=1)
        related_threshold: float = Field(default=0.92, gt=0, le=1)
        short_words: int = Field(default=9, ge=1)
        long_duplicate_threshold: float = Field(default=0.98, gt=0, le=1)
        long_related_threshold: float = Field(default=0.95, gt=0, le=1)
        # Stored passage vectors closer than this are look-alikes.
        candidate_floor: float = Field(default=0.86, ge=-1, le=1)
        candidates: int = Field(default=3, ge=1, le=20)
        # Lexical fallback (no embedder): Jaccard over words and CJK bigrams.
        lexical_duplicate: float = Field(default=0.8, gt=0, le=1)
        lexical_related: float = Field(default=0.5, gt=0, le=1)
        max_related: int = Field(default=3, ge=0, le=20)

        @model_validator(mode="after")
        def _ordered(self) -> NearDuplicateStage.Options:
            if (self.related_threshold > self.duplicate_threshold
                    or self.long_related_threshold > self.long_duplicate_threshold):
                raise ValueError("a related threshold must not exceed its duplicate threshold")
            if self.lexical_related > self.lexical_duplicate:
                raise ValueError("lexical_related must not exceed lexical_duplicate")
            return self


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        if self._retires(candidate, ctx):
            return StageResult.passed()
        if ctx.embedder is not None:
            scored = self._semantic(candidate, ctx)
            method = "semantic"
        else:
            scored = self._lexical(candidate, ctx)
            method = "lexical"
        override = ctx.settings.dup_threshold if method == "semantic" else None
        bands = [(r, s, *self._bands(method, candidate.text, r.text, override))
                 for r, s in scored]
        scored = [(r, s) for r, s, _, related in bands if s >= related]
        from jamgate_stages.change import adds_to, refines  # change imports this module

        # A look-alike whose every content word the save keeps is a copy whatever its
        # similarity, unless what the save adds says more (`adds_to`, below): an intensifier
        # or the user named again does not (D-361, D-400).
        copies = [(r, s) for r, s, duplicate, related in bands
                  if (s >= duplicate or (s >= related and refines(candidate.text, r.text)))
                  and not value_conflict(candidate.text, r.text)]
        if copies and declares_change(reading(candidate.text)):
            copies = []  # "I'm now a senior developer": an update, not a copy (D-263)
        # A save that keeps every word of its look-alike and says more refines it, subject or
        # not ("Vivo en Barcelona" → "Vivo en Gràcia, en Barcelona"): no copy (D-355).
        copies = [(r, s) for r, s in copies if not adds_to(candidate.text, r.text)]
        # Two people's facts are no copies however alike they read ("My sister lives in Oslo"
        # / "My brother lives in Oslo", D-430).
        copies = [(r, s) for r, s in copies if not _apart(candidate, r)]
        # Another value of a closed class ("Soy vegetariano" / "Soy vegano", "the staging
        # server …" / "the production server …"), or an ending of the state its look-alike
        # tells ("Lotte en ik zijn uit elkaar"): a new fact, no copy (D-442, D-443).
        copies = [(r, s) for r, s in copies if not _new_value(candidate.text, r.text)]
        hints = [Related(id=r.id, text=r.text, subject=r.subject, similarity=round(s, 4))
                 for r, s in scored[: self.options.max_related]]
        if copies:
            best, similarity = copies[0]
            return StageResult(
                decision="possible_duplicate", reason_code=f"near_duplicate.{method}",
                message=self._message(candidate, best, similarity), existing_id=best.id,
                related=hints)
        return StageResult.passed(related=hints)

    def _bands(self, method: str, a: str, b: str,
               override: float | None = None) -> tuple[float, float]:
        """The (duplicate, related) thresholds for a pair of texts. `override` (the
        predecessor's JAMGATE_DUP_THRESHOLD) replaces the semantic duplicate threshold."""
        options = self.options
        if method == "lexical":
            return options.lexical_duplicate, options.lexical_related
        if max(length(a), length(b)) > options.short_words:
            duplicate, related = options.long_duplicate_threshold, options.long_related_threshold
        else:
            duplicate, related = options.duplicate_threshold, options.related_threshold
        if override is not None:
            duplicate, related = override, min(related, override)
        return duplicate, related

    @staticmethod
    def _retires(candidate: Candidate, ctx: StageContext) -> bool:
        """Whether an earlier stage retires or files against a record (same subject, or an
        expired record with the same text)."""
        if candidate.subject is not None and on_subject(ctx.view, candidate.subject):
            return True
        return bool(ctx.view.by_text_key(candidate.key))

    def _semantic(self, candidate: Candidate, ctx: StageContext
                  ) -> list[tuple[MemoryRecord, float]]:
        """The nearest live records by passage vector, with their cosines (no embedding
        beyond the candidate's own passage vector)."""
        vector = ctx.embed(candidate.text, "passage")
        if not vector or ctx.embedder is None:
            return []
        near = [(record, similarity) for record, similarity in
                nearest(ctx, vector, self.options.candidates)
                if similarity >= self.options.candidate_floor
                and record.embedding_model in (None, ctx.embedder.model_id)]
        return sorted(near, key=lambda hit: -hit[1])

    def _lexical(self, candidate: Candidate, ctx: StageContext
                 ) -> list[tuple[MemoryRecord, float]]:
        hits = search(ctx, candidate.text, 5)  # shared with the change stage's frames
        scored = [(record, token_similarity(candidate.text, record.text)) for record, _ in hits]
        return sorted(scored, key=lambda hit: -hit[1])

    @staticmethod
    def _message(candidate: Candidate, existing: MemoryRecord, similarity: float) -> str:
        advice = (
            f'If it is a different fact, save it again with the existing memory\'s subject '
            f'("{existing.subject}") to replace it, or reword it to say what differs.'
            if existing.subject else
            "If it is a different or newer fact, save it again with a `subject` naming what it "
            "is about, or reword it to say what differs."
        )
        return (f'Not saved: "{candidate.text}" looks like a near-duplicate of an existing '
                f'memory: "{existing.text}" [id {existing.id}] (~{similarity:.2f}). If it is the '
                f"same fact, nothing to do. {advice}")


_RELATIVES = frozenset(RELATIONS.values())


def _new_value(new: str, old: str) -> bool:
    """Whether the save names another value of a closed class than its look-alike, or tells
    of an ending the look-alike does not (D-442, D-443)."""
    new, old = reading(new), reading(old)
    return value_swap(new, old) is not None or (ends(new) and not ends(old))


def _apart(candidate: Candidate, record: MemoryRecord) -> bool:
    """Whether the subject stage reads two other people (relatives, known first names) whose
    names share no part: `sister` / `brother`, not `jam-nephew` / `jam-nephew-enzo`. The person
    against a named person tells nothing (the name may be the user's: "Jam, the user, …"), nor
    do two things (a paraphrase may name its topic by another noun: "the deadline of the
    project" / "the project must be delivered")."""
    (kind, prefix), (other_kind, other_prefix) = holder(candidate.text), holder(record.text)
    if kind != other_kind or kind != "other" or not (prefix and other_prefix):
        return False
    if not (_someone(prefix) and _someone(other_prefix)):
        return False  # a verb the holder rules took for a name ("Adoro dançar.")
    return not set(prefix.split("-")) & set(other_prefix.split("-"))


def _someone(prefix: str) -> bool:
    """A holder's prefix that names a relative or a known first name."""
    return any(part in _RELATIVES or named_person(part.capitalize()) for part in prefix.split("-"))
