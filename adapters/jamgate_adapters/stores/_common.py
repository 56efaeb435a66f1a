"""Pure helpers shared by the built-in stores. Other adapters may import these names; they are
kept stable.

- `encode_cursor` / `decode_cursor`: the opaque keyset cursor of `Store.list`.
- `listed(record, status, type, now)`: whether a record belongs to a `list` status filter.
- `newest_first(records)`, `ranked(scored)`: the orderings every store uses.
- `fold`, `words`, `index_terms`, `query_terms`, `lexical_score`: a small lexical scorer
  (diacritic folding, CJK bigrams) for stores without a keyword index.
- `cjk_grams(text)`, `script_runs(word)`: CJK segmentation for keyword indexes.
- `cosine`, `blend`: vector similarity and the lexical/semantic blend.
- `fuse`, `discounted`, `QueryHints`, `VectorMatrix`, `diversify`, `rank_records`: the ranking
  every bundled store shares (docs/recall.md).
- `invariant_problems(records)`: the uniqueness invariants of active records.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import functools
import math
import operator
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple, Protocol, TypeVar

from jamgate_adapters.stores._dates import query_period
from jamgate_core.contracts import Preconditions
from jamgate_core.errors import InvalidArgument, PreconditionFailed
from jamgate_core.models import ClientInfo, MemoryRecord, iso, parse_iso, text_key

LEXICAL_WEIGHT = 0.7
SEMANTIC_WEIGHT = 0.3
# A record qualifies on meaning alone when its cosine reaches this (lexical score zero).
SEMANTIC_MIN = 0.35

STOPWORDS: frozenset[str] = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "do", "does", "for", "from", "has", "have",
    "how", "i", "in", "is", "it", "its", "me", "my", "of", "on", "or", "so", "that", "the",
    "their", "them", "they", "this", "to", "was", "were", "what", "when", "where", "which",
    "who", "why", "with", "you", "your",
})

_WORD = re.compile(r"[^\W_]+")
_CURSOR_PREFIX = "c1:"


# --- cursors ---------------------------------------------------------------------------------

def encode_cursor(created_at: datetime, record_id: str) -> str:
    """An opaque cursor naming the last row of a page: its (created_at, id)."""
    raw = f"{_CURSOR_PREFIX}{iso(created_at)}|{record_id}".encode()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor: str) -> tuple[str, str]:
    """The (iso created_at, id) a cursor names; InvalidArgument when it is not one of ours."""
    problem = InvalidArgument(
        f"cursor {cursor[:40]!r} is not one this store issued; pass next_cursor from the "
        "previous page unchanged, or omit it to start from the newest"
    )
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        raw = base64.urlsafe_b64decode(padded.encode("ascii")).decode("utf-8")
    except (UnicodeError, ValueError, binascii.Error) as exc:
        raise problem from exc
    if not raw.startswith(_CURSOR_PREFIX) or "|" not in raw:
        raise problem
    stamp, _, record_id = raw[len(_CURSOR_PREFIX):].partition("|")
    try:
        canonical = iso(parse_iso(stamp))
    except ValueError as exc:
        raise problem from exc
    if canonical != stamp or not record_id:
        raise problem
    return stamp, record_id


# --- filters and orderings -------------------------------------------------------------------

LIST_STATUSES = ("active", "superseded", "expired", "all")


def check_list_args(limit: int, status: str) -> None:
    """Refuse what no store can page: a limit under 1 or an unknown status."""
    if limit < 1:
        raise InvalidArgument(f"limit must be at least 1, got {limit}")
    if status not in LIST_STATUSES:
        raise _unknown_status(status)


def _unknown_status(status: str) -> InvalidArgument:
    return InvalidArgument(f"unknown status {status!r}; use one of {', '.join(LIST_STATUSES)}")


def check_preconditions(preconditions: Preconditions,
                        by_text_key: Callable[[str, str], Iterable[MemoryRecord]],
                        by_subject: Callable[[str, str], Iterable[MemoryRecord]]) -> None:
    """Raise PreconditionFailed unless each text key and subject read during judgement still
    has exactly the active records it had (looked up with the store's own readers)."""
    scope = preconditions.scope
    for key, ids in preconditions.by_key.items():
        if frozenset(r.id for r in by_text_key(scope, key)) != ids:
            raise PreconditionFailed(f"the records with text key {key!r} changed")
    for subject, ids in preconditions.by_subject.items():
        if frozenset(r.id for r in by_subject(scope, subject)) != ids:
            raise PreconditionFailed(f"the records about {subject!r} changed")


def listed(record: MemoryRecord, status: str, type: str | None, now: datetime) -> bool:
    """Whether `record` belongs to a `list` page for `status` (active|superseded|expired|all)."""
    if type is not None and record.type != type:
        return False
    if status == "all":
        return True
    if status == "superseded":
        return record.status == "superseded"
    if status == "expired":
        return record.status == "active" and record.is_expired(now)
    if status == "active":
        return record.is_live(now)
    raise _unknown_status(status)


def newest_first(records: Iterable[MemoryRecord]) -> list[MemoryRecord]:
    """Records by created_at descending, ties by id descending."""
    return sorted(records, key=lambda r: (iso(r.created_at), r.id), reverse=True)


def ranked(scored: Iterable[tuple[MemoryRecord, float]]) -> list[tuple[MemoryRecord, float]]:
    """Hits best first: score descending, then newest (to the millisecond, as stored), then id
    descending."""
    by_recency = sorted(scored, key=lambda hit: (_millisecond(hit[0].created_at), hit[0].id),
                        reverse=True)
    return sorted(by_recency, key=lambda hit: -hit[1])


def _millisecond(moment: datetime) -> datetime:
    """`moment` in UTC, cut to whole milliseconds: what `iso` keeps, without formatting it."""
    moment = moment.astimezone(UTC)
    return moment.replace(microsecond=moment.microsecond - moment.microsecond % 1000)


# --- lexical scoring -------------------------------------------------------------------------

def fold(text: str) -> str:
    """Case- and diacritic-folded text: `Café Müller` → `cafe muller`."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", stripped).casefold()


def is_cjk(ch: str) -> bool:
    """Han, Hiragana or Katakana: scripts written without spaces between words."""
    code = ord(ch)
    return code >= 0x3040 and (
        0x3040 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF or 0x3400 <= code <= 0x4DBF
        or 0x4E00 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0xFF66 <= code <= 0xFF9F
        or 0x20000 <= code <= 0x3FFFF
    )


def script_runs(word: str) -> list[tuple[bool, str]]:
    """A word split into maximal CJK and non-CJK runs."""
    runs: list[tuple[bool, str]] = []
    for ch in word:
        cjk = is_cjk(ch)
        if runs and runs[-1][0] == cjk:
            runs[-1] = (cjk, runs[-1][1] + ch)
        else:
            runs.append((cjk, ch))
    return runs


def words(text: str) -> list[str]:
    """Folded runs of letters and digits, in order."""
    return _WORD.findall(fold(text))


def cjk_grams(text: str) -> tuple[list[str], list[str]]:
    """The text as a keyword index sees CJK: (grams, chars).

    `grams`: for each word holding CJK, its non-CJK runs whole and each CJK run as its
    overlapping bigrams followed by its last character, so a phrase of consecutive bigrams
    matches exactly the 2+ character substrings of a run. `chars`: every CJK character.
    """
    grams: list[str] = []
    chars: list[str] = []
    if text.isascii():
        return grams, chars
    for word in words(text):
        if not any(is_cjk(ch) for ch in word):
            continue
        for cjk, run in script_runs(word):
            if not cjk:
                grams.append(run)
                continue
            grams += [run[i:i + 2] for i in range(len(run) - 1)]
            grams.append(run[-1])
            chars += list(run)
    return grams, chars


def index_terms(text: str) -> set[str]:
    """Every term a text can be found by: its words, their non-CJK runs, CJK bigrams and chars."""
    terms: set[str] = set()
    for word in words(text):
        terms.add(word)
        for cjk, run in script_runs(word):
            if cjk:
                terms.update(run)
                terms.update(run[i:i + 2] for i in range(len(run) - 1))
            else:
                terms.add(run)
    return terms


def query_terms(query: str) -> list[str]:
    """The terms a query looks for: stopwords dropped (unless nothing else is left), each CJK
    run as its bigrams (one character alone stays a character)."""
    found = words(query)
    content = [w for w in found if w not in STOPWORDS] or found
    terms: list[str] = []
    for word in content:
        for cjk, run in script_runs(word):
            if cjk and len(run) > 1:
                terms += [run[i:i + 2] for i in range(len(run) - 1)]
            else:
                terms.append(run)
    return list(dict.fromkeys(terms))


def subject_text(subject: str | None) -> str:
    """A canonical subject as words: `current-project` → `current project`."""
    return re.sub(r"[-_/]+", " ", subject or "").strip()


def lexical_score(terms: Sequence[str], record: MemoryRecord) -> float:
    """Share of the query's terms (weighted by length) found in the record's text or subject."""
    if not terms:
        return 0.0
    have = index_terms(f"{record.text} {subject_text(record.subject)}")
    total = sum(len(t) for t in terms)
    return sum(len(t) for t in terms if t in have) / total


# --- vectors ---------------------------------------------------------------------------------

def norm(vector: Sequence[float]) -> float:
    return math.sqrt(math.fsum(x * x for x in vector))


def cosine(a: Sequence[float], b: Sequence[float], a_norm: float | None = None,
           b_norm: float | None = None) -> float:
    """Cosine similarity; 0 for empty or zero vectors and for a length mismatch."""
    if not a or len(a) != len(b):
        return 0.0
    na = norm(a) if a_norm is None else a_norm
    nb = norm(b) if b_norm is None else b_norm
    if na == 0 or nb == 0:
        return 0.0
    similarity = sum(map(operator.mul, a, b)) / (na * nb)
    return min(max(similarity, -1.0), 1.0)


def blend(lexical: float, semantic: float) -> float:
    """The recall score when the query has a vector: 0.7 lexical + 0.3 cosine, both clamped."""
    clamp = lambda x: min(max(x, 0.0), 1.0)  # noqa: E731
    return LEXICAL_WEIGHT * clamp(lexical) + SEMANTIC_WEIGHT * clamp(semantic)


# --- invariants ------------------------------------------------------------------------------

def invariant_problems(records: Iterable[MemoryRecord]) -> list[str]:
    """Active records sharing a (scope, text key) or a (scope, subject)."""
    keys: dict[tuple[str, str], list[str]] = {}
    subjects: dict[tuple[str, str], list[str]] = {}
    for record in records:
        if record.status != "active":
            continue
        keys.setdefault((record.scope, record.key), []).append(record.id)
        if record.subject is not None:
            subjects.setdefault((record.scope, record.subject), []).append(record.id)
    problems = [
        f"scope {scope!r}: {len(ids)} active records share one text key ({', '.join(sorted(ids))})"
        for (scope, _), ids in keys.items() if len(ids) > 1
    ]
    problems += [
        f"scope {scope!r}: {len(ids)} active records share subject {subject!r} "
        f"({', '.join(sorted(ids))})"
        for (scope, subject), ids in subjects.items() if len(ids) > 1
    ]
    return problems


# --- ranking (keyword relevance, typo tolerance, vectors, fusion, diversity) -----------------
#
# Every bundled store ranks the same way (docs/recall.md):
# - keyword relevance is BM25 (k1 1.2–1.5, b 0.75) where each query word of 4+ letters after a
#   light suffix strip matches as a prefix (`painted` → `paint*`), a word no record contains
#   falls back to the indexed words within a small edit distance, and the subject's words count;
# - a query naming a memory type ("my preferences") adds TYPE_BONUS to records of that type;
# - with a query vector, each record's cosine loses HUB_DISCOUNT × its cosine with the scope's
#   centroid (a generic memory, "Tim loves reading", is close to every query on its topic), is
#   standardised over the scope (a z-score, so e5's narrow range and another model's wide one
#   weigh the same) and added to LEXICAL_FUSION × the
#   keyword score relative to the best hit; the sum goes through a logistic, so 0.5 is "as
#   similar as the average memory here";
# - a hit nearly identical to a better one (cosine ≥ NEAR_IDENTICAL, or the same words) moves
#   behind the distinct hits; recency breaks ties, then the id.

LEXICAL_FUSION = 1.2
# Measured on LoCoMo dev with multilingual-e5-small: R@5 .576 → .583, and +.003 to +.008 for
# every discount from 0.25 to 1.0 (docs/recall.md).
HUB_DISCOUNT = 0.5
TYPE_BONUS = 0.25
# A query naming a day or a month ("on 9 October, 2022") puts the memories created then first
# among the relevant ones (LoCoMo dev, sessions replayed at their dates: R@5 +.017).
TEMPORAL_BONUS = 2.0
# Meaning alone qualifies a record when its cosine is this many deviations above the scope's
# mean, or (small scopes) reaches SEMANTIC_FLOOR.
SEMANTIC_Z = 1.0
SEMANTIC_FLOOR = 0.88
NEAR_IDENTICAL = 0.95
PREFIX_MIN = 4
_SUFFIXES = ("ing", "ed", "es", "s", "ly")
_TYPE_WORDS: dict[str, str] = {
    "identity": "identity", "identities": "identity", "project": "project",
    "projects": "project", "preference": "preference", "preferences": "preference",
    "state": "state", "states": "state",
}


def stem(word: str) -> str:
    """A light, language-blind suffix strip for Latin-script words (`painted` → `paint`)."""
    if not word.isascii():
        return word
    for _ in range(2):  # `paintings` → `painting` → `paint`
        for suffix in _SUFFIXES:
            if len(word) > len(suffix) + 2 and word.endswith(suffix):
                word = word[: -len(suffix)]
                break
        else:
            break
    return word


class QueryTerm(tuple[str, bool]):
    """A query term: its text and whether it matches as a prefix."""

    __slots__ = ()

    @property
    def text(self) -> str:
        return self[0]

    @property
    def prefix(self) -> bool:
        return self[1]

    def matches(self, token: str) -> bool:
        return token.startswith(self[0]) if self[1] else token == self[0]


def match_terms(query: str) -> list[QueryTerm]:
    """The query as terms: non-CJK words stemmed and matched as prefixes when 4+ characters
    long (else exactly), CJK runs as exact bigrams (one character alone stays one)."""
    terms: list[QueryTerm] = []
    for term in query_terms(query):
        if any(is_cjk(ch) for ch in term):
            terms.append(QueryTerm((term, False)))
            continue
        root = stem(term)
        terms.append(QueryTerm((root, True)) if len(root) >= PREFIX_MIN
                     else QueryTerm((term, False)))
    return list(dict.fromkeys(terms))


def named_types(query: str) -> frozenset[str]:
    """Memory types the query names (`preferences` → preference)."""
    return frozenset(_TYPE_WORDS[w] for w in words(query) if w in _TYPE_WORDS)


class QueryHints:
    """What a query says beyond its words: memory types it names (TYPE_BONUS) and a period
    (TEMPORAL_BONUS for memories created in it)."""

    def __init__(self, query: str, now: datetime | None = None) -> None:
        self.types = named_types(query)
        self.period = query_period(fold(query), now)

    def bonus(self, type: str | None, created_at: datetime | str) -> float:
        extra = TYPE_BONUS if type in self.types else 0.0
        if self.period is not None:
            moment = parse_iso(created_at) if isinstance(created_at, str) else created_at
            if self.period[0] <= moment < self.period[1]:
                extra += TEMPORAL_BONUS
        return extra


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance with adjacent transpositions, or limit + 1 once it exceeds limit."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if (i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb):
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


def typo_limit(term: str) -> int:
    """How many edits a typo may have: none under 4 characters, 1 under 8, else 2; none for
    a term with a digit (a number's look-alike is another number: 2023 is not 2024)."""
    if len(term) < 4 or any(ch.isdigit() for ch in term):
        return 0
    return 1 if len(term) < 8 else 2


def typo_matches(term: str, vocabulary: Iterable[str]) -> list[str]:
    """Indexed words within the typo limit of `term` (same first character), closest first."""
    limit = typo_limit(term)
    if limit == 0 or any(is_cjk(ch) for ch in term):
        return []
    found = [(edit_distance(term, word, limit), word) for word in vocabulary
             if word[:1] == term[:1] and abs(len(word) - len(term)) <= limit and word != term]
    return [word for distance, word in sorted(found) if distance <= limit][:3]


def document_tokens(text: str, subject: str | None) -> list[str]:
    """The tokens BM25 counts for a record: its words (CJK as bigrams and characters) and its
    subject's words."""
    tokens: list[str] = []
    for word in words(f"{text} {subject_text(subject)}"):
        for cjk, run in script_runs(word):
            if cjk:
                tokens += list(run) + [run[i:i + 2] for i in range(len(run) - 1)]
            else:
                tokens.append(run)
    return tokens


def bm25(terms: Sequence[QueryTerm], documents: Sequence[Sequence[str]], k1: float = 1.2,
         b: float = 0.75) -> list[float]:
    """BM25 of each document (a token list) for the query terms, with prefix terms; a term no
    document matches is replaced by its typo matches from the documents' vocabulary."""
    count = len(documents)
    if not count or not terms:
        return [0.0] * count
    lengths = [len(doc) for doc in documents]
    average = sum(lengths) / count or 1.0
    counters = [_counts(tuple(doc)) for doc in documents]
    vocabulary = sorted(set().union(*counters))
    scores = [0.0] * count
    for term in terms:
        matched = _matching(term, vocabulary) or typo_matches(term.text, vocabulary)
        if len(matched) <= 4:
            frequencies = [sum(c.get(token, 0) for token in matched) for c in counters]
        else:
            wanted = set(matched)
            frequencies = [sum(c[token] for token in c.keys() & wanted) for c in counters]
        df = sum(1 for f in frequencies if f)
        if not df:
            continue
        idf = math.log(1 + (count - df + 0.5) / (df + 0.5))
        for i, f in enumerate(frequencies):
            if f:
                scores[i] += idf * f * (k1 + 1) / (f + k1 * (1 - b + b * lengths[i] / average))
    return scores


@functools.lru_cache(maxsize=20_000)
def _cached_tokens(text: str, subject: str | None) -> tuple[str, ...]:
    return tuple(document_tokens(text, subject))


def _matching(term: QueryTerm, vocabulary: Sequence[str]) -> list[str]:
    """The tokens of a sorted vocabulary that `term` matches (its prefix range, or itself)."""
    start = bisect.bisect_left(vocabulary, term.text)
    if not term.prefix:
        return [term.text] if vocabulary[start:start + 1] == [term.text] else []
    end = bisect.bisect_left(vocabulary, term.text + "\U0010ffff", start)
    return list(vocabulary[start:end])


@functools.lru_cache(maxsize=20_000)
def _counts(tokens: tuple[str, ...]) -> dict[str, int]:
    """How often each token occurs (memoised: the same documents are scored query after query;
    callers must not modify the result)."""
    counts: dict[str, int] = {}
    for token in tokens:
        counts[token] = counts.get(token, 0) + 1
    return counts


Key = TypeVar("Key")


def discounted(vectors: Mapping[Key, Sequence[float]], query: Sequence[float],
               discount: float = HUB_DISCOUNT) -> tuple[dict[Key, float], dict[Key, float]]:
    """The cosine of each vector with `query`, and that cosine less `discount` × the vector's
    cosine with the centroid of all the (unit) vectors (pure Python, for small scopes; with no
    discount the two are the same). A zero vector scores 0 on both."""
    size = norm(query)
    units = {i: [x / n for x in v] for i, v in vectors.items() if (n := norm(v)) > 0}
    if not units or size == 0:
        return dict.fromkeys(vectors, 0.0), dict.fromkeys(vectors, 0.0)
    dot = lambda a, b: math.fsum(x * y for x, y in zip(a, b, strict=True))  # noqa: E731
    cosines = {i: dot(units[i], query) / size if i in units else 0.0 for i in vectors}
    if not discount:
        return cosines, cosines
    centroid = [math.fsum(column) / len(units) for column in zip(*units.values(), strict=True)]
    adjusted = {i: c - discount * dot(units[i], centroid) if i in units else 0.0
                for i, c in cosines.items()}
    return cosines, adjusted


def zscores(values: Sequence[float]) -> list[float]:
    """Each value in standard deviations from the mean (0 for all when they do not vary)."""
    if not values:
        return []
    mean = math.fsum(values) / len(values)
    spread = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / len(values))
    return [(v - mean) / spread if spread > 1e-9 else 0.0 for v in values]


def fuse(lexical: dict[str, float], cosines: dict[str, float] | None,
         bonus: Mapping[str, float] | None = None, stats: tuple[float, float] | None = None,
         adjusted: Mapping[str, float] | None = None) -> dict[str, float]:
    """One score per qualifying record id, in (0, 1].

    `lexical`: keyword scores (any positive scale) of the records that matched; `cosines`: the
    cosine of every live record with a vector (None without a query vector); `bonus`: what
    the query's hints add to a record (`QueryHints.bonus`); `adjusted`: the cosines less the
    hub discount (see `discounted`; the cosines themselves when absent), which are
    standardised; `stats`: the (mean, standard deviation) of the scope's adjusted cosines when
    `cosines` holds only some of them.
    """
    best = max(lexical.values(), default=0.0)
    relative = {i: s / best for i, s in lexical.items() if best > 0 and s > 0}
    bonus = bonus or {}
    if cosines is None:
        raw = {i: s + bonus.get(i, 0.0) for i, s in relative.items()}
        top = max(raw.values(), default=0.0)
        return {i: max(s / top, 1e-6) for i, s in raw.items()} if top > 0 else {}
    ids = list(cosines)
    basis = cosines if adjusted is None else adjusted
    if stats is None:
        standard = dict(zip(ids, zscores([basis[i] for i in ids]), strict=True))
    else:
        mean, spread = stats
        standard = {i: (basis[i] - mean) / spread if spread > 1e-9 else 0.0 for i in ids}
    fused: dict[str, float] = {}
    for record_id in set(relative) | set(ids):
        z = standard.get(record_id, 0.0)
        lex = relative.get(record_id, 0.0)
        similar = cosines.get(record_id, -1.0)
        if lex <= 0 and z < SEMANTIC_Z and similar < SEMANTIC_FLOOR:
            continue
        total = z + LEXICAL_FUSION * lex + bonus.get(record_id, 0.0)
        fused[record_id] = max(1.0 / (1.0 + math.exp(-total)), 1e-6)
    return fused


def diversify(hits: list[tuple[MemoryRecord, float]],
              vectors: Mapping[str, Sequence[float]] | None = None,
              ) -> list[tuple[MemoryRecord, float]]:
    """Ranked hits with near-identical ones (cosine ≥ NEAR_IDENTICAL, or the same set of
    words) moved behind the distinct ones, their scores lowered to stay in order."""
    chosen: list[tuple[MemoryRecord, float]] = []
    echoes: list[tuple[MemoryRecord, float]] = []
    seen_words: set[frozenset[str]] = set()
    seen_vectors: list[Sequence[float]] = []
    for record, score in hits:
        shape = frozenset(words(record.text))
        vector = (vectors or {}).get(record.id)
        echo = shape in seen_words or (
            vector is not None and any(cosine(vector, v) >= NEAR_IDENTICAL
                                       for v in seen_vectors))
        (echoes if echo else chosen).append((record, score))
        if not echo:
            seen_words.add(shape)
            if vector is not None:
                seen_vectors.append(vector)
    if not echoes:
        return chosen
    floor = chosen[-1][1] if chosen else 1.0
    return chosen + [(record, min(score, floor) * 0.999) for record, score in echoes]


# --- vector matrices -------------------------------------------------------------------------

try:  # numpy comes with the `semantic` extra; without it the same maths runs in pure Python
    import numpy as _np
except ImportError:  # pragma: no cover - exercised by the no-numpy test in a subprocess
    _np = None  # type: ignore[assignment]


class Nearest(NamedTuple):
    """What `VectorMatrix.ranked` finds: (key, cosine) best first, each hit's adjusted cosine,
    and the mean and standard deviation of the adjusted cosine over every live row."""

    hits: list[tuple[object, float]]
    adjusted: dict[object, float]
    mean: float
    spread: float


class VectorMatrix:
    """The live-or-expiring vectors of one scope, normalised once, for repeated cosine scans.

    Rows carry a key (the store's row id), the expiry as a POSIX timestamp (inf for none) and
    the vector. `ranked(vector, now, k)` finds the rows live at `now` closest to a vector, using
    numpy when it is installed.
    """

    def __init__(self, rows: Sequence[tuple[object, float, Sequence[float]]], dim: int) -> None:
        self.dim = dim
        self.keys = [key for key, _, _ in rows]
        self.expiry = [expires for _, expires, _ in rows]
        if _np is not None:
            matrix = _np.asarray([vector for _, _, vector in rows], dtype=_np.float32)
            matrix = matrix.reshape(len(rows), dim)
            norms = _np.linalg.norm(matrix, axis=1)
            norms[norms == 0] = 1.0
            self._matrix = matrix / norms[:, None]
            self._expiry = _np.asarray(self.expiry, dtype=_np.float64)
            self._rows: list[tuple[list[float], float]] = []
        else:
            self._rows = [(list(vector), norm(vector)) for _, _, vector in rows]

    def __len__(self) -> int:
        return len(self.keys)

    def ranked(self, vector: Sequence[float], now: datetime, k: int,
               also: Iterable[object] = (), discount: float = 0.0) -> Nearest:
        """The `k` live rows of best adjusted cosine (plus the live rows keyed in `also`), best
        first. A row's adjusted cosine is its cosine less `discount` × its cosine with the
        centroid of the live (unit) rows; `mean` and `spread` describe it over every live row."""
        if _np is None:
            return self._ranked_python(vector, now, k, also, discount)
        empty = Nearest([], {}, 0.0, 0.0)
        if len(vector) != self.dim or not self.keys:
            return empty
        query = _np.asarray(vector, dtype=_np.float32)
        size = float(_np.linalg.norm(query))
        if size == 0:
            return empty
        scores = self._matrix @ (query / size)
        live = self._expiry > now.timestamp()
        if not live.any():
            return empty
        adjusted = scores - discount * self._centrality(live) if discount else scores
        alive = adjusted[live]
        rows = _np.nonzero(live)[0]
        count = min(k, len(rows))
        picked = rows[_np.argpartition(-alive, count - 1)[:count]] if count else rows[:0]
        index = self.__dict__.setdefault("_index", {key: n for n, key in enumerate(self.keys)})
        extra = [index[key] for key in also if key in index and live[index[key]]]
        chosen = sorted(set(picked.tolist()) | set(extra), key=lambda n: -float(adjusted[n]))
        return Nearest([(self.keys[n], min(max(float(scores[n]), -1.0), 1.0)) for n in chosen],
                       {self.keys[n]: float(adjusted[n]) for n in chosen},
                       float(alive.mean()), float(alive.std()))

    def _centrality(self, live: Any) -> Any:
        """Each row's cosine with the centroid of the live rows (cached while all are live)."""
        if bool(live.all()):
            if "_central" not in self.__dict__:
                self._central = self._matrix @ self._matrix.mean(axis=0)
            return self._central
        return self._matrix @ self._matrix[live].mean(axis=0)

    def _ranked_python(self, vector: Sequence[float], now: datetime, k: int,
                       also: Iterable[object], discount: float) -> Nearest:
        moment = now.timestamp()
        live = {key: row for key, expires, (row, _) in
                zip(self.keys, self.expiry, self._rows, strict=True) if expires > moment}
        if len(vector) != self.dim or not live:
            return Nearest([], {}, 0.0, 0.0)
        cosines, adjusted = discounted(live, vector, discount)
        values = list(adjusted.values())
        mean = math.fsum(values) / len(values)
        spread = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / len(values))
        wanted = set(also)
        best = sorted(adjusted, key=lambda key: -adjusted[key])
        chosen = [key for n, key in enumerate(best) if n < k or key in wanted]
        return Nearest([(key, cosines[key]) for key in chosen],
                       {key: adjusted[key] for key in chosen}, mean, spread)

    def vector(self, index: int) -> list[float]:
        """The stored (normalised with numpy) vector of row `index`."""
        if _np is not None:
            row: list[float] = self._matrix[index].tolist()
            return row
        return self._rows[index][0]


def rank_records(records: Sequence[MemoryRecord], query: str, limit: int,
                 vector: Sequence[float] | None = None,
                 tokens: Callable[[MemoryRecord], Sequence[str]] | None = None,
                 now: datetime | None = None) -> list[tuple[MemoryRecord, float]]:
    """Search for stores without an index: the same ranking as the SQLite store, computed over
    `records` (the scope's live records, type filter applied). `tokens` may return cached
    `document_tokens` of a record."""
    tokenise = tokens or (lambda r: _cached_tokens(r.text, r.subject))
    terms = match_terms(query)
    keyword = bm25(terms, [tokenise(r) for r in records])
    lexical = {r.id: s for r, s in zip(records, keyword, strict=True) if s > 0}
    cosines = adjusted = None
    vectors: dict[str, Sequence[float]] = {}
    if vector:
        vectors = {r.id: r.embedding for r in records
                   if r.embedding and len(r.embedding) == len(vector)}
        cosines, adjusted = discounted(vectors, vector)
    hints = QueryHints(query, now)
    candidates = lexical.keys() | (cosines or {}).keys()
    bonus = {r.id: hints.bonus(r.type, r.created_at) for r in records if r.id in candidates}
    scores = fuse(lexical, cosines, bonus, adjusted=adjusted)
    by_id = {r.id: r for r in records}
    hits = ranked((by_id[i], s) for i, s in scores.items())[:max(limit * 4, 40)]
    return diversify(hits, vectors or None)[:limit]


class Columns(Protocol):
    """A row of the flat record columns, by name (a dict, or an `sqlite3.Row`)."""

    def __getitem__(self, name: str) -> Any: ...


def record_from_columns(row: Columns, embedding: list[float] | None) -> MemoryRecord:
    """A record from the flat columns of `record_columns` (timestamps as ISO text) and its
    vector, decoded by the caller from however the store keeps it."""
    moment = lambda value: parse_iso(value) if value else None  # noqa: E731
    return MemoryRecord(
        id=row["id"], text=row["text"], type=row["type"], subject=row["subject"],
        scope=row["scope"], source=row["source"], status=row["status"],
        created_at=parse_iso(row["created_at"]), updated_at=parse_iso(row["updated_at"]),
        expires_at=moment(row["expires_at"]), superseded_by=row["superseded_by"],
        superseded_at=moment(row["superseded_at"]),
        client=(ClientInfo(name=row["client_name"], version=row["client_version"])
                if row["client_name"] is not None else None),
        provenance=row["provenance"], embedding_model=row["embedding_model"],
        embedding=embedding,
    )


def _stamp(moment: datetime | None) -> str | None:
    return iso(moment) if moment else None


def record_columns(record: MemoryRecord) -> dict[str, Any]:
    """A record as the flat columns the SQL stores keep (sqlite, supabase): every field but
    the vector, timestamps as fixed-width ISO text, the text key beside the text."""
    client = record.client
    return {
        "id": record.id, "scope": record.scope, "text": record.text,
        "text_key": text_key(record.text), "type": record.type, "subject": record.subject,
        "source": record.source, "status": record.status,
        "created_at": iso(record.created_at), "updated_at": iso(record.updated_at),
        "expires_at": _stamp(record.expires_at), "superseded_by": record.superseded_by,
        "superseded_at": _stamp(record.superseded_at),
        "client_name": client.name if client else None,
        "client_version": client.version if client else None,
        "provenance": record.provenance, "embedding_model": record.embedding_model,
    }
