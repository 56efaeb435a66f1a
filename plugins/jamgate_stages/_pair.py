"""A learned pair signal: does a new save replace this stored fact of the same person (D-362)?

The change stage's rules find an update by what the text says (change words, slot phrases,
named replacements, kinds of thing); they fit the phrasings they were written from. This is a
small logistic model over features of the pair (new save, stored fact) that read no language:

- the rules' own signals as numbers — the holder of each text, past time, a wish, a declared
  change, an addition word, word overlap, a refinement, the same kind of thing or slot phrase;
- the overlap of the two texts' character trigrams (shared, and each side's own share), which
  reads a refinement or a copy in any script;
- with an embedder, the cosine of the two passage vectors, their element-wise product and the
  two vectors themselves: the embedder is multilingual, so the model learns what a present
  statement of a one-valued slot and its replacement look like in its space, not in words.

Weights are trained offline (`scripts/train_pair_signal.py`) and written as
`pair_weights/pair_<mode>.npz` beside this module; the vector mode's ships (D-366), trained
on the stage's own neighbours in stores of many facts, reading each pair's place among them.
`_pair_search` loads this module, and numpy, only when a model of the mode exists; inference
is one dot product.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache
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
    from types import ModuleType

def _change_module() -> ModuleType:
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


@lru_cache(maxsize=256)
def _read(text: str) -> tuple[str, frozenset[str], str | None, frozenset[str], bool, bool,
                              bool]:
    """What the rules read of one text, once a text: its holder kind, kinds of thing, slot
    phrase, trigrams, and whether it wishes, declares a change or adds."""
    return (_change_module().holder_kind(text), thing_kinds(text, phone_context=True),
            slot_phrase(text), frozenset(_trigrams(text)), _wishes(text),
            declares_change(text), _added(text))


@lru_cache(maxsize=64)  # one save beside each of its neighbours: read once (not mutated)
def text_features(new: str, now: datetime | None = None) -> np.ndarray:
    """The rules' signals about the new save alone: what it says of time and intent."""
    kind, *_, wishes, declared, added = _read(new)
    return np.array([
        float(kind == "self"), float(kind == "other"), float(kind == "unknown"),
        float(kind.startswith("mine:")), float(is_past(new, now)), float(wishes),
        float(declared), float(added), math.log(len(new) + 1),
    ], dtype=np.float32)


@lru_cache(maxsize=256)  # the stage asked it of the same pair just before (`_may_retire`)
def _same_holder(kind: str, old: str, new: str) -> bool:
    return bool(_change_module().same_holder(kind, old, new))


def relation_features(new: str, old: str) -> np.ndarray:
    """The rules' signals about the pair: holder, overlap, refinement, kind and slot."""
    change = _change_module()
    kind, new_kinds, new_slot, *_, added = _read(new)
    old_kind, old_kinds, old_slot, *_ = _read(old)
    return np.array([
        float(_same_holder(kind, old, new)), float(old_kind == "other"),
        change.lexical_similarity(new, old),
        float(change.refines(new, old)), float(change.adds_to(new, old)), float(added),
        float(bool(new_kinds & old_kinds)),
        float(new_slot is not None and new_slot == old_slot),
        float(new_slot is not None and old_slot is not None and new_slot != old_slot),
        math.log((len(new) + 1) / (len(old) + 1)),
    ], dtype=np.float32)


def _trigrams(text: str) -> set[str]:
    folded = " " + " ".join(words(fold(text))) + " "
    return {folded[i:i + 3] for i in range(len(folded) - 2)}


def _unit(vector: Sequence[float]) -> np.ndarray:
    out = np.asarray(vector, dtype=np.float32)
    return out / (np.linalg.norm(out) or 1.0)


def cosine(left: Sequence[float], right: Sequence[float]) -> float:
    """The cosine of two vectors."""
    return float(_unit(left) @ _unit(right))


def overlap(new: str, old: str) -> np.ndarray:
    """Trigram overlap of the two texts: shared over all, new's own share, old's own share."""
    left, right = _read(new)[3], _read(old)[3]
    return np.array([len(left & right) / max(1, len(left | right)),
                     len(left - right) / max(1, len(left)),
                     len(right - left) / max(1, len(right))], dtype=np.float32)


def neighbourhood(similarities: Sequence[float], index: int) -> tuple[float, float]:
    """Where one neighbour stands among a save's neighbours (D-365): its rank by similarity
    (0 the nearest) and its margin over the best other one (over 0 when it is alone)."""
    own = similarities[index]
    others = [s for n, s in enumerate(similarities) if n != index]
    return (float(sum(s > own for s in others)), own - max(others, default=0.0))


def pair_input(new: str, old: str, new_vec: Sequence[float] | None,
               old_vec: Sequence[float] | None, now: datetime | None = None,
               context: tuple[float, float] | None = None) -> np.ndarray:
    """What a model reads: the rules' signals and the trigram overlap, and with both vectors
    their cosine, element-wise product and the vectors themselves (the `vector` mode); with
    `context`, the pair's place among the save's neighbours (`neighbourhood`)."""
    base = [text_features(new, now), relation_features(new, old), overlap(new, old)]
    if context is not None:
        base.append(np.array(context, dtype=np.float32))
    if new_vec is not None and old_vec is not None:
        u, v = _unit(new_vec), _unit(old_vec)
        base += [np.array([float(u @ v)], dtype=np.float32), u * v, u, v]
    return np.concatenate(base).astype(np.float32)


@dataclass(frozen=True)
class PairModel:
    """A logistic model over standardised pair features."""

    mode: str  # "vector" or "lexical"
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    dim: int = 0  # the vector size a `vector` model reads
    context: bool = False  # whether it reads the pair's place among the neighbours (D-365)

    def probability(self, features: np.ndarray) -> float:
        """The model's probability for one feature row."""
        z = float(((features - self.mean) / self.scale) @ self.weights + self.bias)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def save(self, path: Path) -> None:
        np.savez_compressed(path, mode=np.array(self.mode), mean=self.mean, scale=self.scale,
                            weights=self.weights, bias=np.array(self.bias),
                            dim=np.array(self.dim), context=np.array(self.context))

    @classmethod
    def load(cls, path: Path) -> PairModel:
        with np.load(path) as data:
            return cls(str(data["mode"]), data["mean"].astype(np.float32),
                       data["scale"].astype(np.float32), data["weights"].astype(np.float32),
                       float(data["bias"]), int(data["dim"]),
                       bool(data["context"]) if "context" in data else False)


def probability(model: PairModel, new: str, old: str, new_vec: Sequence[float] | None,
                old_vec: Sequence[float] | None, now: datetime | None = None,
                context: tuple[float, float] | None = None) -> float:
    """The model's probability that `new` replaces `old` (`context` read only by a model
    trained with it)."""
    return model.probability(pair_input(new, old, new_vec, old_vec, now,
                                        context if model.context else None))


@cache
def load_model(path: Path) -> PairModel:
    """A weights file, read once."""
    return PairModel.load(path)
