"""Recall of the SQLite store's look-alike search (the near-duplicate stage's look-up without
an embedder, D-330): stored facts changed by one word — a word inserted, dropped or replaced by
another word of the store — and whether the `exact` search's top five hold the stored fact.

Run: python benchmarks/lookalike_recall.py [--size 10000] [--probes 600] [--seed 3]
Fills a temporary home with `--size` of the speed bench's seeded personal facts, then prints
the share found per kind of change and the search's CPU time a query (process time, with the
store's remembered word counts, as a running server has them).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from datetime import UTC, datetime


def altered(text: str, kind: str, vocabulary: list[str], rng: random.Random) -> str:
    """`text` with one word after the first inserted before, dropped or replaced."""
    words = text.split()
    at = rng.randrange(1, len(words))
    if kind == "insert":
        words[at] = "really " + words[at]
    elif kind == "drop":
        del words[at]
    else:
        words[at] = rng.choice(vocabulary)
    return " ".join(words)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--probes", type=int, default=600)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jamgate-lookalike-") as folder:
        os.environ["JAMGATE_HOME"] = folder
        from jamgate_commands.bench_speed import Progress, filled_app
        from jamgate_commands.personal_facts import FactsWorkload

        app = filled_app("sqlite", args.size, FactsWorkload(args.size, 10), Progress(sys.stderr))
        try:
            store = app.store
            texts = [r.text for r, _ in store.search("default", "", limit=args.size, type=None,
                                                      now=datetime.now(UTC))]
            rng = random.Random(args.seed)
            vocabulary = sorted({w for t in texts for w in t.rstrip(".").split()})
            found: dict[str, list[int]] = {"insert": [0, 0], "drop": [0, 0], "replace": [0, 0]}
            spent = 0.0
            for _ in range(args.probes):
                source, kind = rng.choice(texts), rng.choice(sorted(found))
                probe = altered(source, kind, vocabulary, rng)
                began = time.process_time()
                hits = store.search("default", probe, limit=5, type=None,
                                    now=datetime.now(UTC), exact=True)
                spent += time.process_time() - began
                found[kind][0] += any(record.text == source for record, _ in hits)
                found[kind][1] += 1
        finally:
            app.close()
    total = sum(n for n, _ in found.values())
    print(f"found in the top five: {total} of {args.probes} ({total / args.probes:.1%}); "
          + ", ".join(f"{kind} {n}/{m}" for kind, (n, m) in found.items())
          + f"; CPU {spent / args.probes * 1e3:.3f} ms a search")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
