"""kill -9 at random moments: every save the client saw acknowledged is still there.

A client saves in a tight loop through the real server (`jamgate serve` over stdio) and
appends each acknowledged id to an fsynced file before its next call; a timer sends SIGKILL to
the server at a random moment. After each kill the store opens, passes its integrity check and
holds every acknowledged save; at most the one save in flight is there unacknowledged.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import threading
from pathlib import Path

import pytest
from reliability_kit import (
    LOCAL_STORES,
    ServerGone,
    all_records,
    opened,
    server_env,
    spawn_server,
)

KILLS = 20


def save_until_killed(env: dict[str, str], acks: int, rng: random.Random,
                      counter: list[int]) -> list[str]:
    """Start a server, save in a loop until a random SIGKILL; the acknowledged ids. The kill
    timer is armed once the first save is acknowledged: that save loads the gate's model (numpy
    and the classifier's weights, D-154), which on a loaded machine can take longer than the
    whole kill window, and the kills must land between saves, not before them."""
    session = spawn_server(env)
    killer = threading.Timer(rng.uniform(0.02, 0.35), session.process.send_signal,
                             args=(signal.SIGKILL,))
    acknowledged: list[str] = []
    try:
        while True:
            if acknowledged and not killer.is_alive() and not killer.finished.is_set():
                killer.start()
            counter[0] += 1
            n = counter[0]
            args = {"text": f"Jam keeps crash-test fact number {n} in mind",
                    "source": "user-explicit"}
            if n % 4 == 0:  # some saves supersede: the retire and the insert are one write
                args["subject"] = f"crash-subject-{n % 3}"
            result = session.call("save_memory", args)
            verdict = result["structuredContent"]
            assert not result.get("isError") and verdict["decision"] in ("saved", "superseded"), \
                result
            os.write(acks, (verdict["id"] + "\n").encode())
            os.fsync(acks)
            acknowledged.append(verdict["id"])
    except ServerGone:
        pass
    finally:
        if killer.is_alive() or killer.finished.is_set():
            killer.join()
        session.process.wait(timeout=30)
        assert session.process.stdin is not None and session.process.stdout is not None
        with contextlib.suppress(BrokenPipeError):  # unflushed bytes to a dead process
            session.process.stdin.close()
        session.process.stdout.close()
    assert session.process.returncode == -signal.SIGKILL, "the server died of something else"
    return acknowledged


@pytest.mark.slow
@pytest.mark.parametrize("store", sorted(LOCAL_STORES))
def test_kill_9_loses_no_acknowledged_save(store: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    ack_path = tmp_path / "acks.txt"
    acks = os.open(ack_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    env = server_env(home, store=LOCAL_STORES[store])
    rng, counter = random.Random(1212), [0]
    try:
        for kill in range(1, KILLS + 1):
            save_until_killed(env, acks, rng, counter)
            acknowledged = ack_path.read_text().split()
            with opened(home, store) as app:
                assert app.store.integrity_check() == [], f"after kill {kill}"
                stored = {r.id for r in all_records(app)}
                missing = set(acknowledged) - stored
                assert not missing, f"kill {kill}: acknowledged saves lost: {sorted(missing)}"
                assert len(stored - set(acknowledged)) <= kill, "one in-flight save per kill"
                actives = [r for r in all_records(app) if r.status == "active" and r.subject]
                subjects = [r.subject for r in actives]
                assert len(subjects) == len(set(subjects)), "one active record per subject"
    finally:
        os.close(acks)
    assert len(acknowledged) > KILLS, "the kills should land between saves, not before them"


def test_the_kill_lands_mid_session(tmp_path: Path) -> None:
    """The harness itself: a killed server ends the loop with ServerGone, not a hang."""
    env = server_env(tmp_path / "home")
    session = spawn_server(env)
    session.process.send_signal(signal.SIGKILL)
    with pytest.raises(ServerGone):
        for _ in range(1000):
            session.call("save_memory", {"text": "Jam likes quick harness checks"})
    assert session.process.wait(timeout=30) == -signal.SIGKILL
    assert isinstance(session.process, subprocess.Popen)
