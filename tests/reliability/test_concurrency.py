"""Four processes saving at once into one store, with overlapping subjects and identical texts:
nothing acknowledged is lost, and exactly one record is active per (scope, subject) and per
text key.

Each worker opens its own `App` on the shared store, waits at a start line, then saves a mix
of texts every worker also saves (dedup races), texts on subjects every worker uses
(supersession races) and texts of its own, writing each verdict to its own fsynced file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from reliability_kit import LOCAL_STORES, all_records, opened

from jamgate_core.models import text_key

WORKERS = 4
SAVES = 60
SHARED_TEXTS = [f"Jam has shared habit number {n} every single week" for n in range(12)]
SUBJECTS = ["editor", "city", "employer"]

WORKER = """
import json, os, sys, time
from pathlib import Path
from jamgate_core.app import open_app
from jamgate_core.errors import StoreError
from jamgate_core.models import SaveRequest

worker, start, out = int(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
shared, subjects, saves = json.loads(sys.argv[4]), json.loads(sys.argv[5]), int(sys.argv[6])
app = open_app()
log = os.open(out, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
while not start.exists():
    time.sleep(0.005)
for i in range(saves):
    kind = i % 3
    if kind == 0:
        request = SaveRequest(text=shared[(i + worker) % len(shared)])
    elif kind == 1:
        subject = subjects[(i // 3 + worker) % len(subjects)]
        request = SaveRequest(text=f"Jam's {subject} is choice {worker}-{i}", subject=subject,
                              source="user-explicit")
    else:
        request = SaveRequest(text=f"Jam noted private fact {worker}-{i} for later")
    try:
        verdict = app.save(request)
        line = {"text": request.text, "decision": verdict.decision, "id": verdict.id,
                "superseded": verdict.superseded_ids}
    except StoreError as exc:  # contention beyond the retries is an error, never a loss
        line = {"text": request.text, "error": type(exc).__name__, "message": str(exc)}
    os.write(log, (json.dumps(line) + "\\n").encode())
    os.fsync(log)
app.close()
"""


@pytest.mark.slow
@pytest.mark.parametrize("store", sorted(LOCAL_STORES))
def test_concurrent_writers_lose_nothing(store: str, tmp_path: Path, jamgate_home: Path) -> None:
    start = tmp_path / "go"
    env = {**os.environ, "JAMGATE_HOME": str(jamgate_home),
           "JAMGATE_STORE": LOCAL_STORES[store]}
    outs = [tmp_path / f"worker-{n}.jsonl" for n in range(WORKERS)]
    workers = [subprocess.Popen(
        [sys.executable, "-c", WORKER, str(n), str(start), str(outs[n]),
         json.dumps(SHARED_TEXTS), json.dumps(SUBJECTS), str(SAVES)], env=env)
        for n in range(WORKERS)]
    time.sleep(0.5)  # let them open the store
    start.touch()
    assert [w.wait(timeout=300) for w in workers] == [0] * WORKERS

    lines = [json.loads(line) for out in outs for line in out.read_text().splitlines()]
    assert len(lines) == WORKERS * SAVES
    errors = [line for line in lines if "error" in line]
    for error in errors:
        assert error["error"] == "StoreUnavailable" and "Try again" in error["message"], error
    assert len(errors) <= len(lines) // 10, f"too many saves gave up: {errors[:3]}"
    stored_ids = {line["id"] for line in lines if line.get("decision") in ("saved", "superseded")}
    pointed_ids = {line["id"] for line in lines if line.get("decision") in ("duplicate",
                                                                           "conflict")}

    with opened(jamgate_home, store) as app:
        assert app.store.integrity_check() == []
        records = {r.id: r for r in all_records(app)}
        assert stored_ids <= set(records), "an acknowledged save is missing"
        assert pointed_ids <= set(records), "a duplicate verdict points at nothing"
        active = [r for r in records.values() if r.status == "active"]
        per_subject = Counter(r.subject for r in active if r.subject)
        per_key = Counter(text_key(r.text) for r in active)
        assert [s for s, n in per_subject.items() if n > 1] == []
        assert [k for k, n in per_key.items() if n > 1] == []
        for subject in SUBJECTS:
            assert per_subject[subject] == 1, f"no active record for {subject}"
        for text in SHARED_TEXTS:
            assert sum(1 for r in records.values() if r.text == text) == 1, text
        # Every retired record was retired by a save someone saw acknowledged.
        retired = {i for line in lines for i in line.get("superseded") or []}
        assert retired <= set(records)
        assert all(records[i].status == "superseded" for i in retired)
