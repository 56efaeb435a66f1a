"""What a store's keyword index holds for a text, and what a query looks for in it.

Every term here is a run of `jamgate_core.text.runs` over `jamgate_core.text.fold(text)`: the
one folding the gate's stages use too, so a stage and a store read `Straße` and `STRASSE`,
`ﬁle` and `file`, `İstanbul` and `istanbul` as one word. CJK runs (`is_cjk`, the iteration
marks 々〆〇 included) are cut into overlapping bigrams and single characters.

- `index_terms(text)`: every term a text can be found by (stores without an index).
- `document_tokens(text, subject)`: the tokens BM25 counts for a record.
- `cjk_grams(text)`: the CJK bigrams and characters a keyword index keeps beside the words.
- `query_terms(query)`, `match_terms(query)`: what a query looks for (stopwords dropped,
  long words stemmed and matched as prefixes).
- `bm25(terms, documents)`: BM25 with prefix terms and typo widening (`typo_matches`).

A change here (or in `jamgate_core.text`) changes what the sqlite, supabase and graphiti indexes
hold: it is a schema migration of those stores (see `sqlite/schema.py` v4, `supabase/store.py`
v2, `graphiti/store.py` v2).
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from collections.abc import Iterable, Sequence

from rapidfuzz import process
from rapidfuzz.distance import OSA

from jamgate_core.models import MemoryRecord
from jamgate_core.text import STOPWORDS, fold, is_cjk, runs, script_runs, stem

PREFIX_MIN = 4


def subject_text(subject: str | None) -> str:
    """A canonical subject as words: `current-project` → `current project`."""
    return re.sub(r"[-_/]+", " ", subject or "").strip()


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
    for word in runs(fold(text)):
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
    for word in runs(fold(text)):
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
    found = runs(fold(query))
    content = [w for w in found if w not in STOPWORDS] or found
    terms: list[str] = []
    for word in content:
        for cjk, run in script_runs(word):
            if cjk and len(run) > 1:
                terms += [run[i:i + 2] for i in range(len(run) - 1)]
            else:
                terms.append(run)
    return list(dict.fromkeys(terms))


def lexical_score(terms: Sequence[str], record: MemoryRecord) -> float:
    """Share of the query's terms (weighted by length) found in the record's text or subject."""
    if not terms:
        return 0.0
    have = index_terms(f"{record.text} {subject_text(record.subject)}")
    total = sum(len(t) for t in terms)
    return sum(len(t) for t in terms if t in have) / total


def document_tokens(text: str, subject: str | None) -> list[str]:
    """The tokens BM25 counts for a record: its words (CJK as bigrams and characters) and its
    subject's words."""
    tokens: list[str] = []
    for word in runs(fold(f"{text} {subject_text(subject)}")):
        for cjk, run in script_runs(word):
            if cjk:
                tokens += list(run) + [run[i:i + 2] for i in range(len(run) - 1)]
            else:
                tokens.append(run)
    return tokens


@functools.lru_cache(maxsize=20_000)
def cached_tokens(text: str, subject: str | None) -> tuple[str, ...]:
    """`document_tokens`, memoised (the same records are scored query after query)."""
    return tuple(document_tokens(text, subject))


# --- query terms -----------------------------------------------------------------------------

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


# --- typo tolerance --------------------------------------------------------------------------

def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance with adjacent transpositions (optimal string alignment, by
    rapidfuzz), or limit + 1 once it exceeds limit."""
    return int(OSA.distance(a, b, score_cutoff=limit))


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
    words = vocabulary if isinstance(vocabulary, (list, tuple)) else list(vocabulary)
    found = process.extract(term, words, scorer=OSA.distance, score_cutoff=limit, limit=None)
    near = [(distance, word) for word, distance, _ in found
            if word[:1] == term[:1] and word != term]
    return [word for _, word in sorted(near)][:3]


# --- BM25 ------------------------------------------------------------------------------------

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
