"""An import decides exactly as the same records saved one by one (issue 21's speed work).

Every record of a batch goes through every stage; the batch's shortcuts (the empty scope's
lookups, the classifier's cached feature buckets, the overlay's counted look-alikes) must not
change one decision. The corpus is the gate corpus's dev split: refusals of every category,
keeps, and credentials, in many languages.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from jamgate_commands.bench_gate import split_cases
from jamgate_core.app import open_app
from jamgate_core.models import SaveRequest, utcnow
from jamgate_core.settings import load_settings

GATE2 = Path(__file__).resolve().parent / "corpus" / "gate2"


def _requests() -> list[SaveRequest]:
    start = utcnow() - timedelta(days=400)
    return [SaveRequest(text=case.text, type=case.type, source=case.source, subject=case.subject,
                        created_at=start + timedelta(minutes=n))
            for n, case in enumerate(split_cases("dev", GATE2))]


@pytest.mark.parametrize("store", ["sqlite", "memory"])
def test_an_import_decides_as_one_save_at_a_time(store: str, jamgate_home: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    requests = _requests()
    assert len(requests) > 400
    monkeypatch.setenv("JAMGATE_STORE", store)
    one_by_one = open_app(load_settings(home=jamgate_home / "single"))
    try:
        singles = [one_by_one.save(request, origin="import") for request in requests]
    finally:
        one_by_one.close()
    batched = open_app(load_settings(home=jamgate_home / "batch"))
    try:
        batch = batched.save_batch(requests, origin="import")
    finally:
        batched.close()
    pairs = [((s.decision, s.reason_code), (b.decision, b.reason_code))
             for s, b in zip(singles, batch, strict=True)]
    differing = [(request.text, single, imported) for request, (single, imported)
                 in zip(requests, pairs, strict=True) if single != imported]
    assert differing == []
    # The corpus exercises both outcomes, so an all-pass or all-refuse gate would not hold.
    decisions = {single[0] for single, _ in pairs}
    assert {"saved", "rejected"} <= decisions
