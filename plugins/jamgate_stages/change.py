"""Change: a save that says it replaces a fact retires that fact, subject or not (D-263).

Supersession needs a subject, and the subject stage derives one only for the slots it knows
(home, work, editor …). But people announce most changes in words that name no slot: "I'm
vegan now", "I switched from Notion to Obsidian", "I no longer drink coffee", "Ahora uso
Neovim en lugar de VS Code". Such a text declares that something it resembles no longer holds.
So, when a save retires nothing else, this stage looks for a change declared in the text
(`declares_change`: "now", "no longer", "switched", "instead of", "stopped" … in the subject
stage's seven languages), then for the person's own live fact it most resembles — the
nearest passage vector at a cosine of at least `semantic_floor` with an embedder, otherwise
the best keyword match sharing at least `lexical_floor` of its words (markers aside) — and
retires it. Never when the save speaks of the past, wishes or plans ("I want to switch to …"),
adds rather than replaces ("also", "another", "a second"), belongs to someone else than the
record (`subject.holder`), comes from a less trusted source than the record, or is older than
it: then both stay, and the near-duplicate stage's `related` hint names the look-alike.
Where no change is declared, a fact in the same words but for the value of a slot the person
owns after a copula ("my X is Y") is replaced (`_frame`, D-410; a count alone is no slot,
D-431). Where these
rules find nothing, a learned pair signal over the embedder's vectors may
(`_pair`, D-362 – D-366): it retires only at a high probability, else names the fact. Its
weights ship for the vector mode only (D-366), so without an embedder it is asked nothing.
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from jamgate_core import (
    TRUST,
    BaseStage,
    Candidate,
    MemoryRecord,
    Related,
    StageContext,
    StageResult,
    canonical_subject,
)
from jamgate_stages._compound import holds_several
from jamgate_stages._ending import (
    dated_before,
    ends,
    names_person,
    object_words,
    opens_mine,
    shared_objects,
    without_ending,
)
from jamgate_stages._frame import ARTICLES as _FRAME_ARTICLES
from jamgate_stages._frame import MINE, owned_swap, tokens
from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._nearest import nearest, search
from jamgate_stages._pair_search import best_pair, names_a_span, pair_ready, pair_score
from jamgate_stages._replaced_names import holds_all, replaced_terms
from jamgate_stages._spelling import on_subject, twin
from jamgate_stages._text import fold, reading, stem, words, wordset
from jamgate_stages._things import closes_account, thing_kinds
from jamgate_stages._time import is_past
from jamgate_stages._user_words import OTHER_FORMS, SUBJECT, opening
from jamgate_stages._value_words import ONE_VALUED, names_value, value_swap
from jamgate_stages.change_words import (
    MARKER_WORDS,
    PENDING_REFUSAL,
    RELATIVES_OPENING,
    declares_change,
    possessed,
    speaks_of_self,
)
from jamgate_stages.classifier.markers import marker_features, named_person
from jamgate_stages.neardup import shingles
from jamgate_stages.subject import THIRD_PERSON, holder

_NAMED_OWNER = lazy_compile(r"\W*[^\W\d_][\w-]*['’]s\b")
# The person as an agent's note names them (D-353): "المستخدم …", "המשתמשת …", "Пользователь …",
# "用户 …", "ユーザーは …", in every language of the shared table (D-386); "the user's …",
# "用户的 …" name someone else.
_USER_OPENING = lazy_compile(opening(possessive=False, lead=r"\W*"))


@lru_cache(maxsize=1024)  # a pure function of the text, read by several paths a save
def _content(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in shingles(text) if w not in MARKER_WORDS)


def lexical_similarity(new: str, old: str) -> float:
    """Jaccard similarity of the two texts' content words, the change's own words left out."""
    left, right = _content(new), _content(old)
    return len(left & right) / len(left | right) if left and right else 0.0


def refines(new: str, old: str) -> bool:
    """Whether `new` keeps every content word of `old` and declares no change: it says more
    about the same value ("Vivo en Barcelona" → "Vivo en Gràcia, en Barcelona"), it does not
    replace it (D-300). Language-free: words, stems, the change markers of every language."""
    kept = _content(old)
    return bool(kept) and kept <= _content(new) and not declares_change(new)


# Words that say nothing more about a fact: the person named as the user, intensifiers and
# articles ("Jam, the user, likes figs", "Ana really likes figs": copies, not refinements;
# D-361).
_SAYS_NOTHING = frozenset(stem(w) for w in SUBJECT | OTHER_FORMS | wordset("""users la el los las
le les il lo gli die der das den dem het ο η το really very actually truly just quite indeed
definitely certainly wirklich sehr vraiment très realmente muy davvero molto echt heel
naprawdę bardzo действительно очень gerçekten çok πραγματικά πολύ""") if "_" not in w)


def adds_to(new: str, old: str) -> bool:
    """Whether `new` refines `old` and says more: a strict superset of its content words, so
    a rewording with the same content words is no refinement of it (D-355), and what it adds
    is more than the user named again or an intensifier (D-361)."""
    kept, said = _content(old), _content(new)
    return (bool(kept) and kept < said and not (said - kept) <= _SAYS_NOTHING
            and not declares_change(new))


@lru_cache(maxsize=1024)  # a pure function of the text, read once a record and a save
def _the_persons(text: str, kind: str) -> bool:
    """Whether a text whose holder reads as `kind` is about the person: their own slot, no
    named holder, or the person said as a pronoun ("Dana and I …", D-442)."""
    return kind in ("self", "unknown") or kind.startswith("mine:") or names_person(text)


def holder_kind(text: str) -> str:
    """`subject.holder`'s kind, where an opening capitalised word that is no known first name
    ("Non bevo più …", "Firefox is my browser now") is no other person."""
    if _USER_OPENING.match(text.lower()):
        return "self"
    if (first := words(text)[:1]) and first[0].lower() in RELATIVES_OPENING:
        return "other"
    kind, prefix = holder(text)
    opening = words(text)[:1]
    # The holder rules read a first person they do not know as a name ("Ik …" → `ik`); a
    # relation they did read stays another person's, even where a first-person word of
    # another language opens it ("My brother …": Polish "my" is "we", D-303).
    misread = kind == "unknown" or (kind == "other" and bool(opening)
                                    and fold(opening[0]) == prefix)
    if misread:
        if speaks_of_self(text):
            return "self"  # a first person the holder rules do not read (D-290)
        if (slot := possessed(text)) is not None:
            return f"mine:{slot}"  # "Mijn broer …", "我的手机 …": a slot of theirs (D-290)
    if (kind == "other" and prefix is not None and opening and fold(opening[0]) == prefix
            and not named_person(opening[0])):
        return "unknown"
    return kind


def candidate_holder(candidate: Candidate) -> str:
    """`holder_kind` of a save, where the subject stage's own reading settles an unclear one:
    a subject it derived with the opening word as its owner ("Jana got a new job at SAP." →
    `jana-employer`) is that person's, not the user's (D-426)."""
    text = reading(candidate.text)
    kind = holder_kind(text)
    if kind == "unknown" and candidate.subject and not candidate.subject_given \
            and (opening := words(text)[:1]) \
            and candidate.subject.startswith(f"{canonical_subject(fold(opening[0]))}-"):
        return "other"
    return kind


def same_holder(new_kind: str, old: str, new: str) -> bool:
    """Both the person's own facts (a text whose holder is unclear counts as theirs when the
    other is plainly theirs, or when neither names or points at anyone: an agent's note or a
    first person the language drops, D-290). Another person's facts are left to the subject
    stage, whose subjects carry their name: a narrative about them says "now" of many things
    (D-263)."""
    old_kind = holder_kind(old)
    if new_kind.startswith("mine:") or old_kind.startswith("mine:"):
        # the same slot of theirs, however spelt (D-409), never a relative's for theirs
        return new_kind == old_kind or (new_kind.startswith("mine:") and old_kind.startswith(
            "mine:") and twin(new_kind[5:], old_kind[5:]))
    if {new_kind, old_kind} == {"unknown"}:
        return not (_points_at_someone(new) or _points_at_someone(old))
    if new_kind == "unknown" and (first := words(new)[:1]) and first[0].lower() in THIRD_PERSON:
        return False  # "Her favourite film is now …": someone's, not plainly theirs (D-429)
    return {new_kind, old_kind} <= {"self", "unknown"} and "self" in (new_kind, old_kind)


@lru_cache(maxsize=1024)  # a pure function of the text, asked of each neighbour a save
def _points_at_someone(text: str) -> bool:
    """A named person, a third-person pronoun or title among the text's words, or an opening
    possessive of a name the name table does not hold ("Jam's bike …")."""
    if _NAMED_OWNER.match(text):
        return True
    found = marker_features(words(fold(text)), named_person(text))
    return "m:name" in found or "m:third" in found


class ChangeStage(BaseStage):
    """Retires the person's fact that a save says it replaces."""

    name = "change"

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")

        # Measured on multilingual-e5-small, `passage:` on both sides: a declared change and
        # the fact it replaces sat at 0.87–0.97, unrelated facts of the person at 0.80–0.85.
        semantic_floor: float = Field(default=0.87, gt=0, le=1)
        lexical_floor: float = Field(default=0.3, gt=0, le=1)
        candidates: int = Field(default=5, ge=1, le=20)
        semantic_confirm: float = Field(default=0.0, ge=0, le=1)
        # The learned pair signal (D-362 – D-366): retire only at a high probability (0.95
        # lost facts out of fold, D-366), name the fact in `related` from `pair_related`.
        pair: bool = True
        pair_retire: float = Field(default=0.98, gt=0, le=1)
        pair_related: float = Field(default=0.5, gt=0, le=1)

    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        # Passing state in the classifier's reading, unless it updates a fact (D-289).
        pending = candidate.annotations.get(PENDING_REFUSAL)
        otherwise = StageResult.reject(*pending) if pending else StageResult.passed()
        text = reading(candidate.text)
        if ends(text) and (ended := self._ending(candidate, ctx, otherwise)) is not None:
            return ended
        if not (declares_change(text) or closes_account(text)):
            # the rules are silent: another value of a slot of the person's in the same words
            # (D-410), then the learned pair signal; never passing state
            if pending:
                return otherwise
            return (self._by_frame(candidate, ctx) or self._by_value(candidate, ctx)
                    or self._by_pair(candidate, ctx, otherwise))
        if is_past(text, ctx.now):
            return otherwise
        if self._judged(candidate, ctx):
            return StageResult.passed()  # the supersede stage has judged it
        replaced = self._replaced(candidate, ctx)
        if replaced is None:
            return otherwise if pending else self._by_pair(candidate, ctx, otherwise)
        return StageResult(
            retire=[replaced.id], reason_code="supersede.change",
            message=(f'Saved: "{candidate.text}", and retired the older memory it says it '
                     f'replaces: "{replaced.text}" [id {replaced.id}]. If both still hold, save '
                     "the older one again."))

    def _ending(self, candidate: Candidate, ctx: StageContext,
                otherwise: StageResult) -> StageResult | None:
        """An ending event (D-442): the person's fact naming the object it ends is retired;
        where it names an object no such fact holds, nothing (never the nearest fact by
        resemblance); None where it names no object, or declares a change in other words too
        (the declared-change rules judge it)."""
        text = reading(candidate.text)
        if not object_words(text):
            return None
        if is_past(text, ctx.now) or dated_before(text, ctx.now.year):
            return otherwise
        if self._judged(candidate, ctx):
            return StageResult.passed()
        kind = holder_kind(text)
        relation = opens_mine(text) if kind == "other" else None
        if not (_the_persons(text, kind) or relation):
            return otherwise  # another person's ending: the subject stage judges it
        found = []
        for record, _ in search(ctx, candidate.text, self.options.candidates):
            shared = shared_objects(text, reading(record.text))
            if shared and self._ends_theirs(record, candidate, ctx, relation):
                found.append((shared, record.created_at, record))
        if not found:
            # a thing of the kind it names ("I sold my car" beside "I drive a Mazda 3"); a
            # change declared beside the ending ("Ci siamo lasciati, adesso sto con Luca") is
            # the declared-change rules'; else nothing
            same = self._same_kind(candidate, kind, ctx) if relation is None else None
            if same is None:
                return None if declares_change(without_ending(text)) else otherwise
            found = [(1, same.created_at, same)]
        ended = max(found, key=lambda hit: hit[:2])[2]
        return StageResult(
            retire=[ended.id], reason_code="supersede.change",
            message=(f'Saved: "{candidate.text}", and retired the older memory of the state it '
                     f'ends: "{ended.text}" [id {ended.id}]. If it still holds, save it again.'))

    @staticmethod
    def _ends_theirs(record: MemoryRecord, candidate: Candidate, ctx: StageContext,
                     relation: str | None) -> bool:
        """Live, no more trusted, not newer, one fact, and the person's own: said by them, or
        naming the relation an ending of "my …" opens with ("My cat Miso died" ends "I have a
        cat called Miso", not "My sister's …")."""
        old = reading(record.text)
        if not (record.is_live(ctx.now) and TRUST[record.source] <= TRUST[candidate.source]
                and record.created_at <= candidate.created_at) \
                or holds_several(old) or not _the_persons(old, holder_kind(old)):
            return False
        if relation is None:
            return True
        return relation in {fold(w) for w in words(old)}

    def _replaced(self, candidate: Candidate, ctx: StageContext) -> MemoryRecord | None:
        """The live fact of the same holder the candidate most resembles, above the floor."""
        vector = ctx.embed(candidate.text, "passage") if ctx.embedder is not None else None
        kind = holder_kind(reading(candidate.text))
        pending = bool(candidate.annotations.get(PENDING_REFUSAL))
        # A fact holding what the text names as replaced is stronger evidence than resemblance:
        # the nearest of the person's notes may share only "the user …" with it (D-353).
        if not pending and (named := self._named(candidate, kind, ctx)) is not None:
            return named
        if vector:
            scored = nearest(ctx, vector, self.options.candidates)
            near = [(r, s) for r, s in scored if s >= self.options.semantic_floor
                    and self._confirmed(candidate, r, vector, scored, ctx)]
            if (found := self._first(near, candidate, kind, ctx)) is not None:
                return found
        lexical = [(r, lexical_similarity(candidate.text, r.text))
                   for r, _ in ctx.view.search(candidate.text, limit=self.options.candidates)]
        lexical = [(r, s) for r, s in lexical if s >= self.options.lexical_floor]
        # passing state ("moved the meeting from Monday to …") names no fact: never read above
        if (found := self._first(lexical, candidate, kind, ctx)) is not None:
            return found
        return self._same_kind(candidate, kind, ctx)

    def _by_pair(self, candidate: Candidate, ctx: StageContext,
                 otherwise: StageResult) -> StageResult:
        """The learned pair signal where the rules found nothing (D-362): the person's live
        fact it scores highest is retired at `pair_retire` or above, named in `related` at
        `pair_related` or above; below, nothing."""
        text = reading(candidate.text)
        if not (self.options.pair and pair_ready(ctx)) or is_past(text, ctx.now) \
                or names_a_span(text, ctx.now) or self._judged(candidate, ctx):
            return otherwise  # no model, the past, or a subject the supersede stage judged
        found = best_pair(candidate, ctx, self.options.candidates,
                          lambda r, kind: self._may_retire(r, candidate, kind, ctx))
        if found is None:
            return otherwise
        record, probability, similarity = found
        if probability >= self.options.pair_retire:
            return StageResult(
                retire=[record.id], reason_code="supersede.pair",
                message=(f'Saved: "{candidate.text}", and retired the older memory it most '
                         f'likely replaces (learned signal, {probability:.2f}): "{record.text}" '
                         f"[id {record.id}]. If both still hold, save the older one again."))
        if probability >= self.options.pair_related:
            return StageResult.passed(related=[Related(
                id=record.id, text=record.text, subject=record.subject,
                similarity=round(similarity, 4))])
        return otherwise

    def _confirmed(self, candidate: Candidate, record: MemoryRecord, vector: list[float],
                   scored: list[tuple[MemoryRecord, float]], ctx: StageContext) -> bool:
        """Whether the learned pair signal, where one ships, does not contradict a pick by
        resemblance alone (D-425)."""
        if self.options.semantic_confirm <= 0:
            return True
        score = pair_score(candidate, record, vector, scored, ctx.now)
        return score is None or score >= self.options.semantic_confirm

    @staticmethod
    def _judged(candidate: Candidate, ctx: StageContext) -> bool:
        """Whether the supersede stage judged the candidate's subject (it has records)."""
        return candidate.subject is not None and bool(on_subject(ctx.view, candidate.subject))

    def _by_frame(self, candidate: Candidate, ctx: StageContext) -> StageResult | None:
        """The person's live fact in the same words but for the value of a slot of theirs
        ("Mijn schoenmaat is 43" → "… 45"), retired (D-410); None where no such fact is
        found."""
        if candidate.subject_given:
            return None  # the agent named the slot: the supersede stage judges by it
        said = candidate.text.split()
        head = tokens(" ".join(said[:2]))
        opening = head[1:2] if head[:1] and head[0] in _FRAME_ARTICLES else head[:1]
        owned = bool(opening) and opening[0] in MINE
        # A count alone is no slot: "city number 2", "bug 456", "room 12" are other things than
        # "city number 1", so only a slot of theirs is read (D-431, after the whole suite).
        if not owned:
            return None  # no slot of theirs: most texts stop here, before a search
        framed = []
        for record, _ in search(ctx, candidate.text, self.options.candidates):
            words_there = record.text.split()
            # cheap first: an owned slot has the same opening
            if (bool(words_there) and tokens(words_there[0])[:1] == head[:1]
                    and owned_swap(candidate.text, record.text)):
                framed.append(record)
        if not framed or is_past(candidate.text, ctx.now) or self._judged(candidate, ctx):
            return None  # the guards, asked only of a frame found (most saves find none)
        return self._retire_first(framed, candidate, holder_kind(candidate.text),
                                  "another value in the same words", ctx)

    def _by_value(self, candidate: Candidate, ctx: StageContext) -> StageResult | None:
        """The person's live fact in nearly the same words but for another value of a slot
        that holds one value ("Soy vegetariano" → "Soy vegano", `_value_words`, D-443),
        retired; None where none is found."""
        text = reading(candidate.text)
        if candidate.subject_given or not any(names_value(text, k) for k in ONE_VALUED):
            return None  # most texts stop here, before a search
        found = [record for record, _ in search(ctx, candidate.text, self.options.candidates)
                 if value_swap(text, reading(record.text)) in ONE_VALUED]
        if not found or is_past(text, ctx.now) or self._judged(candidate, ctx):
            return None
        return self._retire_first(found, candidate, holder_kind(text),
                                  "another value of the same slot", ctx)

    def _retire_first(self, found: list[MemoryRecord], candidate: Candidate, kind: str,
                      said: str, ctx: StageContext) -> StageResult | None:
        """The first of `found` the same holder (`kind`) may retire, retired as another value;
        None where none may be."""
        for record in found:
            if self._may_retire(record, candidate, kind, ctx):
                return StageResult(
                    retire=[record.id], reason_code="supersede.value",
                    message=(f'Saved: "{candidate.text}", and retired the older memory that said '
                             f'{said}: "{record.text}" [id {record.id}].'
                             " If both still hold, save the older one again."))
        return None

    def _same_kind(self, candidate: Candidate, kind: str,
                   ctx: StageContext) -> MemoryRecord | None:
        """The person's live fact naming a thing of the kind the change names (a phone, an
        editor, an operating system, a car: `_things`, D-354), the most similar first."""
        # the candidate's kinds, read once with and once without a phone on the other side
        named = {True: thing_kinds(candidate.text, phone_context=True)}
        if not named[True]:
            return None
        named[False] = thing_kinds(candidate.text)
        limit = self.options.candidates
        pool = {r.id: r for r, _ in ctx.view.search(candidate.text, limit=limit)}
        pool.update((r.id, r) for r, _ in ctx.view.search("", limit=4 * limit))
        same = []
        for record in pool.values():
            kinds = thing_kinds(record.text)
            if kinds and kinds & named["phone" in kinds] \
                    and self._may_retire(record, candidate, kind, ctx, by_kind=True):
                same.append(record)
        return max(same, key=lambda r: (lexical_similarity(candidate.text, r.text),
                                        r.created_at), default=None)

    def _named(self, candidate: Candidate, kind: str, ctx: StageContext) -> MemoryRecord | None:
        """The person's live fact holding every word of what the text names as replaced
        ("from X to Y", "replaced X with Y", "把X换成Y", D-302), the most similar first."""
        terms = replaced_terms(candidate.text)
        if not terms:
            return None
        limit = self.options.candidates
        pool = {r.id: r for query in (" ".join(terms), candidate.text)
                for r, _ in ctx.view.search(query, limit=limit)}
        # and the newest: a word index may miss a fused particle ("아이폰을") or a stem
        pool.update((r.id, r) for r, _ in ctx.view.search("", limit=4 * limit))
        named = [r for r in pool.values() if holds_all(r.text, terms)
                 and self._may_retire(r, candidate, kind, ctx)]
        return max(named, key=lambda r: lexical_similarity(candidate.text, r.text), default=None)

    def _first(self, scored: list[tuple[MemoryRecord, float]], candidate: Candidate, kind: str,
               ctx: StageContext) -> MemoryRecord | None:
        """The most similar record the candidate may retire, or None. Resemblance is no
        evidence against the subject stage: a record whose subject shares no part with the
        candidate's is another slot ("User's GitHub handle is …" beside "User switched to
        Neovim", `editor`, D-425)."""
        for record, _ in sorted(scored, key=lambda hit: -hit[1]):
            if _other_slot(candidate.subject, record.subject):
                continue
            if self._may_retire(record, candidate, kind, ctx):
                return record
        return None

    @staticmethod
    def _may_retire(record: MemoryRecord, candidate: Candidate, kind: str,
                    ctx: StageContext, by_kind: bool = False) -> bool:
        """Live, no more trusted, not newer, holding one fact (a record that holds several is
        never retired whole by a change of one, D-441), and the same holder's. Where the kind
        of thing names the slot (`by_kind`), "my X" of the record is the person's own beside a
        change that opens with no possessive and points at no one ("Мой редактор — Emacs" →
        "Теперь пишу в VS Code", D-354)."""
        if not (record.is_live(ctx.now) and TRUST[record.source] <= TRUST[candidate.source]
                and record.created_at <= candidate.created_at) \
                or holds_several(reading(record.text)):
            return False
        if same_holder(kind, record.text, candidate.text):
            return True
        return (by_kind and kind in ("self", "unknown")
                and holder_kind(record.text).startswith("mine:")
                and not _points_at_someone(candidate.text))


def _other_slot(subject: str | None, other: str | None) -> bool:
    """Two subjects with no part in common (`editor`, `github-handle`); `editor` and
    `favourite-editor` share one."""
    if not (subject and other):
        return False
    return not set(subject.split("-")) & set(other.split("-"))
