"""The same saves, checks and recalls through this checkout's Jamgate on a copy of one filled
SQLite store, one JSON line per answer, ids and timestamps replaced by their order of first
appearance: run it under two interpreters (two checkouts' virtualenvs) on the same store and
compare the two files, to show that a change keeps every verdict, reason, related hint and
recall list (the stateful stages too, which `jamgate bench gate` does not run).

Run: python benchmarks/verdict_parity.py --store /path/to/home/with/memory.db --out a.jsonl
       [--size 10000] [--saves 1500] [--seed 7]
The store is the one `benchmarks/stdio_alternating.py` fills (`filled_app`, seeded personal
facts, `--size` of them); the saves mix new facts, stored facts again (duplicates), stored
facts with a word changed, uppercased or dropped (near-duplicates), facts on a subject
(supersession) and a few texts the stateless stages refuse; a tenth are `check` calls.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_STAMP = re.compile(r"\d{4}-\d\d-\d\dT[\d:.]+(?:Z|\+00:00)")
_REFUSED = ("ok thanks", "what is my name?", "password: hunter2 for gmail",
            "The user is testing", "asdf", "I am in Paris today until Friday")
_SUBJECTS = ("location", "job", "pet", "editor", "car", None)


def requests(stored: list[str], fresh: Any, count: int, rng: random.Random) -> list[Any]:
    """`count` save requests of the mixed kinds the module docstring lists."""
    from jamgate_core.models import SaveRequest

    made = []
    for _ in range(count):
        kind = rng.random()
        if kind < 0.4:
            made.append(SaveRequest(text=fresh.text()))
        elif kind < 0.55:
            made.append(SaveRequest(text=rng.choice(stored)))
        elif kind < 0.85:
            words = rng.choice(stored).split()
            at = rng.randrange(1, len(words)) if len(words) > 1 else 0
            if kind < 0.65:
                words[at] = words[at].upper()
            elif kind < 0.75:
                words[at] = "really " + words[at]
            elif len(words) > 1:
                del words[at]
            made.append(SaveRequest(text=" ".join(words)))
        elif kind < 0.95:
            made.append(SaveRequest(text=fresh.text(), subject=rng.choice(_SUBJECTS)))
        else:
            made.append(SaveRequest(text=rng.choice(_REFUSED)))
    return made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", required=True, type=Path, help="a home with memory.db")
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--size", type=int, default=10_000, help="facts the store was filled with")
    parser.add_argument("--saves", type=int, default=1_500)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jamgate-parity-") as folder:
        home = Path(folder, "home")
        shutil.copytree(args.store, home)
        os.environ.update(JAMGATE_HOME=str(home), JAMGATE_EMBEDDER="none", JAMGATE_STORE="sqlite")
        from jamgate_commands.personal_facts import FactsWorkload
        from jamgate_core.app import open_app

        fresh = FactsWorkload(args.size, args.saves)
        fresh._n = args.size  # the facts after the ones the store holds
        rng = random.Random(args.seed)
        stored = [fact.text for fact in fresh.stream[:args.size]]
        seen: dict[str, int] = {}

        def line(model: Any) -> str:
            text = json.dumps(model.model_dump(mode="json"), sort_keys=True)
            text = _ID.sub(lambda m: f"ID{seen.setdefault(m.group(0), len(seen))}", text)
            return _STAMP.sub("TS", text) + "\n"

        app = open_app()
        try:
            with args.out.open("w", encoding="utf-8") as out:
                for request in requests(stored, fresh, args.saves, rng):
                    check = rng.random() >= 0.9
                    out.write(line(app.check(request) if check else app.save(request)))
                for query in ("kite", "Jam's neighbour", "works as a chemist", "Berlin",
                              "dog called"):
                    out.write(line(app.recall(query)))
        finally:
            app.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
