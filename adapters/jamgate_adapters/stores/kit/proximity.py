"""Term order: how many of a query's adjacent word pairs a record holds adjacent and in the
same order ("my mother's neighbour" is not "my neighbour's mother"), stopwords skipped on
both sides, and how many of the query's words a record holds (a coordination factor). Standard
IR signals that need no language: past its budget, the SQLite keyword ranking re-weighs its
best rows by them (D-394)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

from jamgate_adapters.stores.kit.lexical import PREFIX_MIN, QueryTerm, subject_text
from jamgate_core.text import STOPWORDS, fold, is_cjk, runs, stem

# A record holding every adjacent pair of the query has its keyword score raised by this share.
PROXIMITY_WEIGHT = 0.3
# ... and by this share of the query's words it holds (a coordination factor).
COVERAGE_WEIGHT = 1.0


class Adjacency:
    """A query's ordered pairs of adjacent content words, as indexes into its terms (a word
    matches as `lexical.match_terms` matches it: a 4+ letter stem as a prefix, else whole)."""

    def __init__(self, query: str) -> None:
        terms: list[QueryTerm] = []
        sequence: list[int] = []
        for word in runs(fold(query)):
            if word in STOPWORDS or any(is_cjk(ch) for ch in word):
                sequence.append(-1)  # a CJK word breaks the sequence (its grams are unordered)
                continue
            root = stem(word)
            term = QueryTerm((root, True) if len(root) >= PREFIX_MIN else (word, False))
            if term not in terms:
                terms.append(term)
            sequence.append(terms.index(term))
        content = [n for n in sequence if n >= 0]
        self.pairs = {(a, b) for a, b in itertools.pairwise(content) if a != b}
        self.count = len(terms)
        self._exact = {term.text: n for n, term in enumerate(terms) if not term.prefix}
        self._prefixes: dict[int, dict[str, int]] = {}
        for n, term in enumerate(terms):
            if term.prefix:
                self._prefixes.setdefault(len(term.text), {})[term.text] = n
        self._ids = frozenset(range(len(terms)))
        self._seen: dict[str, int] = {}  # a record word's term, once looked up

    def _term(self, token: str) -> int:
        found = self._exact.get(token)
        for length, table in self._prefixes.items():
            if found is not None:
                break
            found = table.get(token[:length])
        self._seen[token] = -1 if found is None else found
        return self._seen[token]

    def weight(self, text: str, subject: str | None) -> float:
        """What a record's keyword score is multiplied by: 1, plus PROXIMITY_WEIGHT times the
        share of the query's pairs it holds adjacent and in order, plus COVERAGE_WEIGHT times
        the share of the query's words it holds."""
        if not self.count:
            return 1.0
        seen = self._seen
        held = [seen[word] if word in seen else self._term(word) for word in _words(text, subject)]
        found = len(self.pairs.intersection(itertools.pairwise(held))) if self.pairs else 0
        return (1 + PROXIMITY_WEIGHT * found / max(len(self.pairs), 1)
                + COVERAGE_WEIGHT * len(self._ids.intersection(held)) / self.count)


@functools.lru_cache(maxsize=4_096)
def _words(text: str, subject: str | None) -> tuple[str, ...]:
    """A record's folded words and its subject's, stopwords dropped (CJK words whole: they
    match no term, so they break the sequence)."""
    both = f"{text} {subject_text(subject)}" if subject else text
    return tuple(word for word in runs(fold(both)) if word not in STOPWORDS)


def reweighed(query: str, texts: Sequence[tuple[str, str | None]], scores: Sequence[float],
              keep: int) -> list[tuple[int, float]]:
    """The `keep` best of keyword rows, each as its (text, subject), by their score times
    `Adjacency.weight`, as (index into `texts`, new score); ties keep the rows' order."""
    order = Adjacency(query)
    weighed = [(-score * order.weight(text, subject), n)
               for n, ((text, subject), score) in enumerate(zip(texts, scores, strict=True))]
    return [(n, -negative) for negative, n in sorted(weighed)[:keep]]
