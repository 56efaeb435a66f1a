"""How every bundled store ranks (docs/recall.md): vector similarity, the lexical/semantic
fusion, query hints, diversity, and `rank_records` for stores without an index.

- keyword relevance is BM25 (`lexical.bm25`: k1 1.2–1.5, b 0.75) where each query word of 4+
  letters after a light suffix strip matches as a prefix (`painted` → `paint*`), a word no
  record contains falls back to the indexed words within a small edit distance, and the
  subject's words count;
- a query naming a memory type ("my preferences") adds TYPE_BONUS to records of that type;
- with a query vector, each record's cosine loses HUB_DISCOUNT × its cosine with the scope's
  centroid (a generic memory, "Tim loves reading", is close to every query on its topic), is
  standardised over the scope (a z-score, so e5's narrow range and another model's wide one
  weigh the same) and added to LEXICAL_FUSION × the keyword score relative to the best hit;
  the sum goes through a logistic, so 0.5 is "as similar as the average memory here";
- a hit with the same words as a better one moves behind the distinct hits (`diversify`; the
  SQLite, file and memory stores compare words only, D-148; a store passing vectors also
  treats cosine ≥ NEAR_IDENTICAL as the same); recency breaks ties, then the id;
- with a query vector, LEXICAL_KEPT_SHARE of the places asked for are held for the keyword
  ranking's best hits (`lexical_kept`, D-405).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TypeVar

from jamgate_adapters.stores.kit.dates import query_period
from jamgate_adapters.stores.kit.lexical import bm25, cached_tokens, match_terms
from jamgate_core.models import MemoryRecord, parse_iso
from jamgate_core.text import fold, runs

LEXICAL_WEIGHT = 0.7
SEMANTIC_WEIGHT = 0.3
# A record qualifies on meaning alone when its cosine reaches this (lexical score zero).
SEMANTIC_MIN = 0.35
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
# With a query vector, this share of the hits asked for (rounded down) is held for the keyword
# ranking's best hits: the vector reorders the rest, but never pushes them out (D-405).
LEXICAL_KEPT_SHARE = 0.3
_TYPE_WORDS: dict[str, str] = {
    "identity": "identity", "identities": "identity", "project": "project",
    "projects": "project", "preference": "preference", "preferences": "preference",
    "state": "state", "states": "state",
}


# --- orderings -------------------------------------------------------------------------------

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


# --- query hints -----------------------------------------------------------------------------

def named_types(query: str) -> frozenset[str]:
    """Memory types the query names (`preferences` → preference)."""
    return frozenset(_TYPE_WORDS[w] for w in runs(fold(query)) if w in _TYPE_WORDS)


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


# --- fusion and diversity --------------------------------------------------------------------

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


def lexical_kept(hits: list[tuple[MemoryRecord, float]], lexical: Mapping[str, float],
                 bonus: Mapping[str, float], records: Mapping[str, MemoryRecord],
                 limit: int) -> list[tuple[MemoryRecord, float]]:
    """The first `limit` of the fused, diversified `hits`, holding the keyword ranking's best
    `limit` × LEXICAL_KEPT_SHARE (what a lexical-only search puts first: keyword score plus
    bonus, newest first among equals, a same-words echo skipped), less any that tie the first
    hit past them (a tie is not the keyword ranking's choice). One the vector pushed out takes
    the place of the last hit that is not one of them; scores stay in order."""
    count = int(limit * LEXICAL_KEPT_SHARE)
    top = hits[:limit]
    best = max(lexical.values(), default=0.0)
    if count <= 0 or best <= 0:
        return top
    ordered: list[tuple[str, float]] = []
    shapes: set[frozenset[str]] = set()
    scored = sorted(((s / best + bonus.get(i, 0.0), records[i]) for i, s in lexical.items()
                     if i in records), key=lambda hit: (hit[0], hit[1].created_at, hit[1].id),
                    reverse=True)  # `ranked`'s order: a stored record's time is in milliseconds
    for score, record in scored:
        shape = frozenset(runs(fold(record.text)))
        if shape not in shapes:
            shapes.add(shape)
            ordered.append((record.id, score))
            if len(ordered) > count:
                break
    line = ordered[count][1] if len(ordered) > count else -math.inf
    kept = [i for i, score in ordered[:count] if not math.isclose(score, line, rel_tol=1e-9)]
    shown = {record.id for record, _ in top}
    missing = [i for i in kept if i not in shown]
    if not missing:
        return top
    extra = len(top) + len(missing) - limit
    out: list[tuple[MemoryRecord, float]] = []
    for record, score in reversed(top):  # drop the last hits that are not kept
        if extra > 0 and record.id not in kept:
            extra -= 1
            continue
        out.append((record, score))
    out.reverse()
    floor = out[-1][1] if out else 1.0
    return out + [(records[i], floor * 0.999 ** (n + 1)) for n, i in enumerate(missing)]


def diversify(hits: list[tuple[MemoryRecord, float]],
              vectors: Mapping[str, Sequence[float]] | None = None,
              ) -> list[tuple[MemoryRecord, float]]:
    """Ranked hits with near-identical ones (cosine ≥ NEAR_IDENTICAL, or the same set of
    words) moved behind the distinct ones, their scores lowered to stay in order."""
    chosen: list[tuple[MemoryRecord, float]] = []
    echoes: list[tuple[MemoryRecord, float]] = []
    seen_words: set[frozenset[str]] = set()
    seen_vectors: list[int] = []
    close = _near_identical([(vectors or {}).get(record.id) for record, _ in hits])
    for n, (record, score) in enumerate(hits):
        shape = frozenset(runs(fold(record.text)))
        echo = shape in seen_words or any(close(n, m) for m in seen_vectors)
        (echoes if echo else chosen).append((record, score))
        if not echo:
            seen_words.add(shape)
            seen_vectors.append(n)
    if not echoes:
        return chosen
    floor = chosen[-1][1] if chosen else 1.0
    return chosen + [(record, min(score, floor) * 0.999) for record, score in echoes]


def _near_identical(vectors: Sequence[Sequence[float] | None]) -> Callable[[int, int], bool]:
    """Whether hits n and m both have vectors of one length with cosine ≥ NEAR_IDENTICAL: one
    matrix product over the hits with numpy, pairwise cosines without it."""
    from jamgate_adapters.stores.kit.vectors import numpy_module

    present = {n: v for n, v in enumerate(vectors) if v is not None and len(v)}
    single_length = len({len(v) for v in present.values()}) == 1
    np = numpy_module() if single_length and len(present) >= 2 else None  # lexical: no numpy
    if np is None:
        return lambda n, m: (n in present and m in present
                             and cosine(present[n], present[m]) >= NEAR_IDENTICAL)
    units = np.asarray(list(present.values()), dtype=np.float32)
    norms = np.linalg.norm(units, axis=1)
    norms[norms == 0] = np.inf
    close = ((units / norms[:, None]) @ (units / norms[:, None]).T) >= NEAR_IDENTICAL
    where = {n: i for i, n in enumerate(present)}
    return lambda n, m: n in where and m in where and bool(close[where[n], where[m]])


def rank_records(records: Sequence[MemoryRecord], query: str, limit: int,
                 vector: Sequence[float] | None = None,
                 tokens: Callable[[MemoryRecord], Sequence[str]] | None = None,
                 now: datetime | None = None) -> list[tuple[MemoryRecord, float]]:
    """Search for stores without an index: the same ranking as the SQLite store, computed over
    `records` (the scope's live records, type filter applied). `tokens` may return cached
    `document_tokens` of a record."""
    tokenise = tokens or (lambda r: cached_tokens(r.text, r.subject))
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
    hits = diversify(hits)  # same words only, as the SQLite store (D-148)
    return lexical_kept(hits, lexical, bonus, by_id, limit) if cosines else hits[:limit]

