"""What the gate's classifier reads of a candidate: hashed features, in numpy.

Language-independent by construction: character 2–4-grams of the folded text (digits read as
`0`), folded words and word pairs, and a few shape signals (length, lines, a closing question
mark, symbol density, clause separators, the declared type), the closed word classes of
`markers` (a person, the present moment, standing words, a definition; whether anything
anchors the text to a person) in many languages, and the text's
edges, structure and scripts (`shape`). The source is not
a feature:
the corpus's refusals lean on agent-inferred text, and a model would learn to distrust every
inference; provenance acts on the decision instead (`model.AGENT_MARGIN`). Each feature is
hashed with CRC-32 into `DIMENSION` buckets; counts are log-scaled and the vector
L2-normalised. Training (`scripts/train_gate_classifier.py`) and inference use this function.
"""

from __future__ import annotations

import math
import operator
import zlib
from collections import Counter
from functools import lru_cache
from itertools import pairwise

from jamgate_core import fold, words
from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages.classifier.markers import NO_ANCHOR, marker_features, named_person
from jamgate_stages.classifier.shape import shape_features

DIMENSION = 1 << 17
MAX_CHARS = 800
_GRAMS = (2, 3, 4)
_DIGITS = lazy_compile(r"\d")
_SPACES = lazy_compile(r"\s+")
_SEPARATORS = lazy_compile(r"[,;:|•·、，；：\n]")


def _bucket(value: int, edges: tuple[int, ...]) -> int:
    return sum(value >= edge for edge in edges)


def feature_names(text: str, source: str | None, type: str | None) -> list[str]:
    """The named features of one candidate (before hashing)."""
    padded, named = _features(text, type)
    return [padded[i:i + n] for n in _GRAMS for i in range(len(padded) - n + 1)] + named


def _features(text: str, type: str | None) -> tuple[str, list[str]]:
    """The padded folded text, whose character n-grams are features, and the other named
    features."""
    head = text[:MAX_CHARS]
    folded = _SPACES.sub(" ", _DIGITS.sub("0", fold(head))).strip()
    padded = f" {folded} "
    tokens = words(folded)
    names = [f"w:{token}" for token in tokens]
    names += [f"b:{a} {b}" for a, b in pairwise(tokens)]
    symbols = sum(1 for char in head if not (char.isalnum() or char.isspace()))
    names += [
        f"type:{type or 'none'}",
        f"len:{_bucket(len(text), (8, 16, 32, 64, 128, 256, 512, 1024))}",
        f"lines:{_bucket(text.count(chr(10)), (1, 2, 4, 8))}",
        f"words:{_bucket(len(tokens), (2, 3, 5, 8, 13, 21, 34))}",
        f"sym:{_bucket(100 * symbols // max(len(head), 1), (5, 10, 20, 35))}",
        f"q:{text.rstrip().endswith(('?', '？', '؟'))}",
        f"parts:{_bucket(len(_SEPARATORS.findall(head)), (1, 2, 3, 5, 8, 13))}",
        f"first:{tokens[0] if tokens else ''}",
        *marker_features(tokens, named_person(head)),
        *shape_features(head, folded, tokens),
    ]
    return padded, names


def _gram_buckets(padded: str) -> list[int]:
    """The buckets of the character n-grams of `padded`, as `_index` gives them: hashed as
    slices of its UTF-8 bytes where every character is one byte (no n-gram string is built,
    D-277)."""
    data = padded.encode("utf-8")
    if len(data) != len(padded):
        return [_index(padded[i:i + n]) for n in _GRAMS for i in range(len(padded) - n + 1)]
    mask = DIMENSION - 1
    return [zlib.crc32(data[i:i + n]) & mask for n in _GRAMS for i in range(len(data) - n + 1)]


def _index(name: str) -> int:
    """A feature's bucket. Not cached (D-236): a cache of 65,536 names held 14.5 MB once
    full, and hashing every text's features afresh measured no slower (157 against 284 µs a
    text over the gate corpus, 113 against 119 on the bench's facts)."""
    return zlib.crc32(name.encode("utf-8")) & (DIMENSION - 1)


@lru_cache(maxsize=256)
def _log_count(count: int) -> float:
    return 1.0 + math.log(count)


def hashed(text: str, source: str | None, type: str | None) -> tuple[list[int], list[float]]:
    """Sparse (indices, values) of one candidate: log counts, L2-normalised (buckets in the
    order of their first feature)."""
    padded, named = _features(text, type)
    mask = DIMENSION - 1
    counts = Counter(_gram_buckets(padded)
                     + [zlib.crc32(name.encode("utf-8")) & mask for name in named])
    values = list(map(_log_count, counts.values()))
    norm = math.sqrt(sum(map(operator.mul, values, values))) or 1.0
    return list(counts), [v / norm for v in values]


_NO_ANCHOR_BUCKET = zlib.crc32(NO_ANCHOR.encode("utf-8")) & (DIMENSION - 1)


def anchored(indices: list[int]) -> bool:
    """Whether a text's hashed features (`hashed`'s indices) lack the `m:no-anchor` bucket, so
    the text names or points at someone ("I", the user, a name, "she", a title; D-324). Read
    from the buckets, not recomputed: where an n-gram of an anchored text falls in the same
    bucket (one in 131,072), the text reads as unanchored, as every text did before."""
    return _NO_ANCHOR_BUCKET not in indices
