"""The lexical classifier out of source: train four times, each time leaving a quarter of the
train split's sources out, and score the sources left out (D-218, D-248's protocol).

    .venv/bin/python scripts/gate_folds.py [--odds K ...] [--world-sentences N] [--world-weight W]
    .venv/bin/python scripts/gate_folds.py --always s22 [--source-weight s22=W]   # D-284
    .venv/bin/python scripts/gate_folds.py --never s22                            # without it

Folds: the train sources sorted by number, every fourth in one fold; the regression corpora
and any world sentences are always trained on. The floor is chosen on dev as the training
script does; an agent's inference is compared with general knowledge (`Weights.decide`); a
general-knowledge refusal of the user's word and a passing-state refusal of a `state` save
are overruled as the stage overrules them. Prints facts lost (of them agent-inferred), the
agent-inferred general knowledge caught and all refusals caught, and each refusal category's
caught / held out; reads no test or blind text. `--always SRC`: that source is trained on in
every fold and never held out; `--never SRC`: neither trained on nor held out.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib

from scipy import sparse
from train_gate_classifier import (
    CORPUS,
    WORLD_WEIGHT,
    fit,
    fit_world,
    label,
    matrix,
    scored,
    split,
    world_cases,
)

from jamgate_commands.bench_gate import GateCase
from jamgate_stages.classifier import model as gate_model
from jamgate_stages.classifier.features import DIMENSION, anchored

FOLDS = 4


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog="--world-*: as train_gate_classifier.py's (D-265)")
    parser.add_argument("--world-sentences", type=int, default=0, metavar="N")
    parser.add_argument("--world-weight", type=float, default=WORLD_WEIGHT)
    parser.add_argument("--world-within", action="store_true")
    parser.add_argument("--world-offset", type=float, default=0.0)
    parser.add_argument("--odds", type=float, nargs="+", default=[1.0],
                        help="an agent's inference is refused where P(general knowledge) times "
                             "this is at least P(keep) (1: the shipped rule; more: D-218)")
    parser.add_argument("--c", type=float, default=16.0)
    parser.add_argument("--always", nargs="*", default=[], metavar="SRC")
    parser.add_argument("--never", nargs="*", default=[], metavar="SRC")
    parser.add_argument("--source-weight", action="append", default=[], metavar="SRC=W")
    parser.add_argument("--user-world", choices=("kept", "anchored", "compared"), default="kept",
                        help="a user's general knowledge the model refuses: always kept (as "
                             "shipped), kept only where anchored, or also refused where the "
                             "model rates it at least as likely as a keep (D-331)")
    args = parser.parse_args()
    sources = sorted((s for s in tomllib.loads((CORPUS / "SPLITS.toml").read_text())["train"]
                      if s not in set(args.always) | set(args.never)),
                     key=lambda s: int(s[1:]))
    train, dev = split("train"), split("dev")
    train = [c for c in train if c.origin.split(":", 1)[0] not in args.never]
    source_weight = {k: float(v) for k, v in (item.split("=", 1) for item in args.source_weight)}
    world = world_cases(args.world_sentences) if args.world_sentences else []
    x_all = matrix(train)
    totals = {k: {"facts": 0, "lost": 0, "lost_agent": 0, "gk_agent": 0, "gk_agent_caught": 0,
                  "gk_user": 0, "gk_user_caught": 0,
                  "refusals": 0, "caught": 0} for k in args.odds}
    per_category: dict[float, dict[str, list[int]]] = {k: {} for k in args.odds}
    for fold in range(FOLDS):
        held = set(sources[fold::FOLDS])
        inside = [i for i, c in enumerate(train) if c.origin.split(":", 1)[0] not in held]
        outside = [i for i, c in enumerate(train) if c.origin.split(":", 1)[0] in held]
        labels = [label(train[i]) for i in inside]
        fitted = (fit_world(x_all[inside], labels, world, args.c, args.world_weight,
                            args.world_within, args.world_offset) if world else
                  fit(x_all[inside], labels, args.c, shares=[
                      source_weight.get(train[i].origin.split(":", 1)[0], 1.0)
                      for i in inside]))
        weights = gate_model.Weights.from_sklearn(fitted, DIMENSION, "lexical")
        weights.reject_below, weights.keep_above = gate_model.choose_thresholds(
            [keep for keep, _ in scored(weights, dev, None)],
            [label(c) == "keep" for c in dev], "lexical")
        for i in outside:
            case = train[i]
            probabilities = weights.probabilities(*_hashed(x_all, i))
            keep = float(probabilities[weights.keep_index])
            category = weights.likeliest_refusal(probabilities)
            for odds, counts in totals.items():
                top = weights.top_refusal(probabilities, _hashed(x_all, i)[0])
                unanchored = not anchored(_hashed(x_all, i)[0])
                verdict = weights.decide(keep, case.source, odds * top)[0]
                gk = float(probabilities[weights.classes.index("general-knowledge")])
                if (args.user_world == "compared" and unanchored
                        and case.source != "agent-inferred" and gk >= keep):
                    verdict, category = "reject", "general-knowledge"
                decision = _count(counts, case, category, verdict,
                                  args.user_world == "kept" or not unanchored)
                if label(case) != "keep":
                    tally = per_category[odds].setdefault(case.category, [0, 0])
                    tally[0] += decision == "reject"
                    tally[1] += 1
    for odds, counts in totals.items():
        print(json.dumps({"world_sentences": args.world_sentences,
                          "world_weight": args.world_weight, "within": args.world_within,
                          "offset": args.world_offset, "odds": odds, **counts,
                          "categories": {k: f"{v[0]}/{v[1]}" for k, v
                                         in sorted(per_category[odds].items())}},
                         ensure_ascii=False))
    return 0


def _count(counts: dict[str, int], case: GateCase, category: str, decision: str,
           users_world_kept: bool = True) -> str:
    """Add one held-out case's outcome; the stage's overrules (a user's general knowledge
    where `users_world_kept`, a typed state) applied. Returns the decision after them."""
    if decision == "reject" and (
            (category == "general-knowledge" and case.source != "agent-inferred"
             and users_world_kept)
            or (category == "transient" and case.type == "state")):
        decision = "pass"
    agent = case.source == "agent-inferred"
    if label(case) == "keep":
        counts["facts"] += 1
        counts["lost"] += decision == "reject"
        counts["lost_agent"] += decision == "reject" and agent
    else:
        counts["refusals"] += 1
        counts["caught"] += decision == "reject"
        if case.category == "general-knowledge":
            key = "gk_agent" if agent else "gk_user"
            counts[key] += 1
            counts[key + "_caught"] += decision == "reject"
    return decision


def _hashed(x: sparse.csr_matrix, row: int) -> tuple[list[int], list[float]]:
    """The hashed features of one row of the matrix, as `Weights.probabilities` reads them."""
    start, end = x.indptr[row], x.indptr[row + 1]
    return x.indices[start:end].tolist(), x.data[start:end].tolist()


if __name__ == "__main__":
    sys.exit(main())
