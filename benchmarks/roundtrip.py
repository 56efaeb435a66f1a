"""The export round trip at scale (issue 21): N live saves of the speed workload's texts into
a fresh store, its export imported into an empty store (`jamgate import`, worker processes
from 1,000 records, D-207), and both stores' records compared field by field.

    python benchmarks/roundtrip.py --records 10000 [--workers N]

Prints the counts, the import's rate, and whether every record (id, text, scope, subject,
type, source, status, dates, supersession) came back the same.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from jamgate_commands.bench_speed import Workload
from jamgate_commands.transfer import export, export_records, import_file, store_scopes
from jamgate_core.app import open_app
from jamgate_core.models import MemoryRecord, SaveRequest
from jamgate_core.settings import load_settings

FIELDS = ("id", "text", "scope", "subject", "type", "source", "status", "created_at",
          "updated_at", "expires_at", "superseded_by", "superseded_at")


def comparable(record: MemoryRecord) -> tuple[Any, ...]:
    return tuple(getattr(record, name) for name in FIELDS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--keep", type=Path, help="copy the export to this file")
    args = parser.parse_args()
    workload = Workload()
    with tempfile.TemporaryDirectory(prefix="jamgate-roundtrip-") as root:
        first, second = Path(root) / "first", Path(root) / "second"
        app = open_app(load_settings(home=first, store="sqlite", embedder="none"))
        try:
            started = time.perf_counter()
            saved = [app.save(SaveRequest(text=workload.text(), subject=workload.subject(i)))
                     for i in range(args.records)]
            save_seconds = time.perf_counter() - started
            scopes = store_scopes(app)
            original = [comparable(r) for r in export_records(app, scopes)]
            with (Path(root) / "export.json").open("w", encoding="utf-8") as out:
                export(app, out, scopes=scopes)
            if args.keep:
                shutil.copyfile(Path(root) / "export.json", args.keep)
        finally:
            app.close()
        app = open_app(load_settings(home=second, store="sqlite", embedder="none"))
        try:
            started = time.perf_counter()
            report = import_file(app, Path(root) / "export.json", name="jamgate",
                                 workers=args.workers)
            import_seconds = time.perf_counter() - started
            again = [comparable(r) for r in export_records(app, store_scopes(app))]
        finally:
            app.close()
    active = sum(1 for r in original if r[FIELDS.index("status")] == "active")
    print(json.dumps({
        "live_saves": args.records, "save_seconds": round(save_seconds, 1),
        "saved": {d: sum(1 for v in saved if v.decision == d) for d in
                  sorted({v.decision for v in saved})},
        "exported": len(original), "active": active,
        "import_counts": {k: v for k, v in report.counts.items() if v},
        "import_seconds": round(import_seconds, 2),
        "identical": again == original,
        "differing": sum(1 for a, b in zip(original, again, strict=False) if a != b)
        + abs(len(original) - len(again)),
    }))


if __name__ == "__main__":
    main()
