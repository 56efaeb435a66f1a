"""A learned pair signal: does a new save replace this stored fact of the same person (D-362)?

The change stage's rules find an update by what the text says (change words, slot phrases,
named replacements, kinds of thing); they fit the phrasings they were written from. This is a
small logistic model over features of the pair (new save, stored fact) that read no language:

- `rules`: the rules' own signals as numbers — the same holder, another person's text, past
  time, a wish, a declared change, an addition word, word overlap, a refinement, the same kind
  of thing or slot phrase on both sides;
- `vector` (with an embedder): the cosine of the two passage vectors, their element-wise
  product and absolute difference — the embedder is multilingual, so the model learns what a
  replacement looks like in its space, not in words;
- `hashed` (without one): shared and unshared character trigrams of the two texts, and hashed
  words of the new text.

Weights are trained offline (`scripts/train_pair_signal.py`) and shipped as `pair_*.npz`
beside this module; inference is one dot product in numpy.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from jamgate_stages._slot_phrases import slot_phrase
from jamgate_stages._text import fold, words
from jamgate_stages._things import thing_kinds
from jamgate_stages._time import is_past
from jamgate_stages.change_words import declares_change

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime

HASH_DIM = 512
WEIGHTS_DIR = Path(__file__).parent / "pair_weights"


def _change_module():  # type: ignore[no-untyped-def]
    from jamgate_stages import change  # late: change imports this module

    return change


def _added(text: str) -> bool:
    from jamgate_stages.change_words import _ADDITION, _ADDITION_CJK

    lowered = text.lower()
    return bool(_ADDITION & {fold(w) for w in words(lowered)}) or any(
        mark in lowered for mark in _ADDITION_CJK)


# A wish or plan said outright (the subject stage's `wished` reads the words before a slot's
# verb; here the whole text): the vectors carry the other languages.
_WISH_WORDS = frozenset({"want", "wants", "hope", "hopes", "dream", "dreams", "plan", "plans",
                         "planning", "considering", "thinking", "someday", "one day"})


def _wishes(text: str) -> bool:
    lowered = text.lower()
    return bool(_WISH_WORDS & set(words(lowered))) or "'d like" in lowered or "one day" in lowered


def rule_features(new: str, old: str, now: datetime | None = None) -> np.ndarray:
    """The rules' signals about the pair, as numbers."""
    change = _change_module()
    kind = change.holder_kind(new)
    old_kind = change.holder_kind(old)
    new_kinds, old_kinds = thing_kinds(new, phone_context=True), thing_kinds(old,
                                                                             phone_context=True)
    new_slot, old_slot = slot_phrase(new), slot_phrase(old)
    return np.array([
        float(change.same_holder(kind, old, new)),
        float(kind == "other"), float(old_kind == "other"),
        float(kind.startswith("mine:")), float(old_kind.startswith("mine:")),
        float(is_past(new, now)), float(_wishes(new)), float(declares_change(new)),
        float(_added(new)),
        change.lexical_similarity(new, old),
        float(change.refines(new, old)), float(change.adds_to(new, old)),
        float(bool(new_kinds & old_kinds)),
        float(new_slot is not None and new_slot == old_slot),
        float(new_slot is not None and old_slot is not None and new_slot != old_slot),
        math.log((len(new) + 1) / (len(old) + 1)),
    ], dtype=np.float32)


def _bucket(token: str) -> int:
    return zlib.crc32(token.encode("utf-8")) % HASH_DIM


def _trigrams(text: str) -> set[str]:
    folded = " " + " ".join(words(fold(text))) + " "
    return {folded[i:i + 3] for i in range(len(folded) - 2)}


def hashed_features(new: str, old: str) -> np.ndarray:
    """Overlap of character trigrams, and hashed words of the new text and trigrams only it
    holds."""
    left, right = _trigrams(new), _trigrams(old)
    shared = left & right
    out = np.zeros(3 + 2 * HASH_DIM, dtype=np.float32)
    out[0] = len(shared) / max(1, len(left | right))
    out[1] = len(left - right) / max(1, len(left))
    out[2] = len(right - left) / max(1, len(right))
    for word in words(fold(new)):
        out[3 + _bucket(word)] = 1.0
    for gram in left - right:
        out[3 + HASH_DIM + _bucket(gram)] += 1.0 / math.sqrt(max(1, len(left)))
    return out


def vector_features(new_vec: Sequence[float], old_vec: Sequence[float]) -> np.ndarray:
    """Cosine, element-wise product and absolute difference of two passage vectors."""
    u, v = np.asarray(new_vec, dtype=np.float32), np.asarray(old_vec, dtype=np.float32)
    u = u / (np.linalg.norm(u) or 1.0)
    v = v / (np.linalg.norm(v) or 1.0)
    return np.concatenate([[float(u @ v)], u * v, np.abs(u - v)]).astype(np.float32)


@dataclass(frozen=True)
class PairModel:
    """A logistic model over standardised pair features."""

    mode: str  # "vector" or "hashed"
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    dim: int = 0  # the vector size a `vector` model reads

    def probability(self, features: np.ndarray) -> float:
        z = float(((features - self.mean) / self.scale) @ self.weights + self.bias)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def save(self, path: Path) -> None:
        np.savez_compressed(path, mode=np.array(self.mode), mean=self.mean, scale=self.scale,
                            weights=self.weights, bias=np.array(self.bias),
                            dim=np.array(self.dim))

    @classmethod
    def load(cls, path: Path) -> PairModel:
        with np.load(path) as data:
            return cls(str(data["mode"]), data["mean"].astype(np.float32),
                       data["scale"].astype(np.float32), data["weights"].astype(np.float32),
                       float(data["bias"]), int(data["dim"]))


def pair_features(new: str, old: str, new_vec: Sequence[float] | None,
                  old_vec: Sequence[float] | None, now: datetime | None = None) -> np.ndarray:
    """The features a model of the mode the vectors allow reads."""
    rules = rule_features(new, old, now)
    if new_vec is not None and old_vec is not None:
        return np.concatenate([rules, vector_features(new_vec, old_vec)])
    return np.concatenate([rules, hashed_features(new, old)])


# Where the models are read from; the training script points it at a fold's models.
_OVERRIDE: dict[str, PairModel | None] = {}


@cache
def _shipped(mode: str) -> PairModel | None:
    path = WEIGHTS_DIR / f"pair_{mode}.npz"
    return PairModel.load(path) if path.is_file() else None


def model_for(mode: str) -> PairModel | None:
    """The pair model of a mode (`vector` or `hashed`), or None when none ships."""
    if mode in _OVERRIDE:
        return _OVERRIDE[mode]
    return _shipped(mode)
