"""Count a split of the measuring corpus by language × category (where the training is thin).

    .venv/bin/python scripts/gate_corpus_counts.py               # train
    .venv/bin/python scripts/gate_corpus_counts.py --split dev

Prints one row per language: its cases, its keeps and each refusal category's count. Counts
only, never a text; the blind split is not read (D-195).
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus" / "gate2"
REFUSALS = ("transient", "tool-output", "assistant-self", "general-knowledge", "pleasantry",
            "injection", "one-off-request", "credential", "junk", "question", "profile-dump",
            "speculation")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="train")
    args = parser.parse_args()
    splits = tomllib.loads((CORPUS / "SPLITS.toml").read_text())
    if args.split == "blind" or set(splits.get(args.split, [])) & set(splits.get("blind", [])):
        parser.error("the blind split is measured only, never counted here")
    if args.split not in splits:
        parser.error(f"no split {args.split!r}; SPLITS.toml names {sorted(splits)}")
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for source in splits[args.split]:
        for line in (CORPUS / f"{source}.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                table[record["lang"]][record["category"]] += 1
    print("lang cases keep " + " ".join(REFUSALS))
    for lang, counts in sorted(table.items(), key=lambda item: -sum(item[1].values())):
        keep = sum(n for category, n in counts.items() if category not in REFUSALS)
        print(lang, sum(counts.values()), keep, " ".join(str(counts[c]) for c in REFUSALS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
