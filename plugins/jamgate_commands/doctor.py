"""`jamgate doctor`: every check of the configuration, plugins and store, as (level, message)
(a `jamgate.plugins` module)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from jamgate_core.cli import EXIT_ERROR, EXIT_OK, print_json
from jamgate_core.contracts import CROSS_PROCESS, LOCAL, STORE_CAPABILITIES
from jamgate_core.errors import JamgateError
from jamgate_core.hookspecs import hookimpl
from jamgate_core.settings import MANDATORY_STAGES

if TYPE_CHECKING:
    from jamgate_core.contracts import Register

Check = tuple[str, str]


def run_doctor() -> list[Check]:
    """Run the checks; an `error` level means Jamgate cannot serve as configured."""
    from jamgate_core.app import App
    from jamgate_core.settings import load_settings

    checks: list[Check] = []
    try:
        settings = load_settings()
    except JamgateError as exc:
        return [("error", f"settings: {exc}")]
    checks.append(("ok", f"home: {settings.home}"))
    try:
        app = App(settings)
    except JamgateError as exc:
        return [*checks, ("error", str(exc))]
    checks.append(("ok", f"stages: {', '.join(s.name for s in app.stages)}"))
    missing = [name for name in MANDATORY_STAGES if name not in {s.name for s in app.stages}]
    if missing:
        checks.append(("warning", f"the stage list leaves out {', '.join(missing)} "
                                  "(allow_unsafe_stage_list = true): the gate is unsafe"))
    if app.embedder is None:
        checks.append(("warning", "embedder: none — recall is lexical-only and there is no "
                                  "near-duplicate detection; install jamgate[semantic] for the "
                                  "local model"))
    else:
        checks.append(("ok", f"embedder: {app.embedder.model_id} ({app.embedder.dim} dims)"))
    try:
        app.start()
    except JamgateError as exc:
        return [*checks, ("error", f"store {app.store_name}: {exc}")]
    try:
        checks.append(("ok", f"store: {app.store_name} at {app.store.location()}"))
        lacking = [c for c in STORE_CAPABILITIES
                   if c not in app.store.capabilities and c != LOCAL]
        if lacking:
            checks.append(("warning", f"store {app.store_name} lacks: {', '.join(lacking)}"))
        if CROSS_PROCESS in app.store.capabilities:
            checks.append(("ok", f"store {app.store_name}: several processes may write at once"))
        else:
            checks.append(("warning", f"store {app.store_name} guarantees nothing across "
                                      "processes: run one Jamgate process on it, and share it "
                                      "with other agents through `jamgate serve --http`"))
        if LOCAL not in app.store.capabilities:
            checks.append(("ok", f"store {app.store_name} is remote: every call has a "
                                 f"{app.settings.store_timeout_seconds:g} s deadline"))
        missing_vectors = getattr(app.store, "missing_vectors", None)
        if app.embedder is not None and missing_vectors is not None:
            stale = len(missing_vectors(app.embedder.model_id, 1000))
            if stale:
                checks.append(("warning", f"{stale if stale < 1000 else '1000+'} memories lack a "
                                          f"vector of {app.embedder.model_id}: they are found by "
                                          "their words only until `jamgate reindex` runs"))
        problems = app.store.integrity_check()
        checks += [("error", f"store integrity: {problem}") for problem in problems]
        if not problems:
            checks.append(("ok", "store integrity check passed"))
        log_path = settings.gate_log_path(app.store_dir())
        checks.append(("ok", f"gate log: {log_path or 'off'}"))
        checks += app.hooks.doctor(app)
    finally:
        app.close()
    return checks


def cmd_doctor(args: argparse.Namespace) -> int:
    checks = run_doctor()
    if args.json:
        print_json([{"level": level, "message": message} for level, message in checks])
    else:
        marks = {"ok": "ok  ", "warning": "warn", "error": "FAIL"}
        for level, message in checks:
            print(f"[{marks.get(level, level)}] {message}")
    return EXIT_ERROR if any(level == "error" for level, _ in checks) else EXIT_OK


@hookimpl
def jamgate_register_commands(register: Register) -> None:
    register("doctor", "check the configuration, plugins and store; exits 1 on errors",
             cmd_doctor, json=True)
