"""Every pluggy hook of the `jamgate` project, documented in one place.

Hooks carry cross-cutting, one-to-many concerns. Components the configuration selects (the
store, the embedder, the ordered stage list, formats) are not hooks: they are stevedore
plugins (see `jamgate_core.loader`). Any loaded component may also implement these hooks.

Hook implementations may accept any subset of the arguments, by name. Core code never calls
`pm.hook.*` directly: it goes through the typed facade `jamgate_core.hooks.Hooks`.
`docs/hooks.md` lists every hook here; a test keeps the two in step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from collections.abc import Callable

    from jamgate_core.contracts import Application, Register
    from jamgate_core.models import Candidate, MemoryRecord, ScoredMemory, StageResult, Verdict
    from jamgate_core.settings import Settings
    from jamgate_core.stage import Stage, StageContext

PROJECT = "jamgate"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec(historic=True)
def jamgate_configure(settings: Settings) -> None:
    """Settings are resolved. Plugins read what they need; called once per app."""


@hookspec
def jamgate_startup(app: Application) -> None:
    """The store, embedder and stages are loaded and the store is open."""


@hookspec
def jamgate_shutdown(app: Application) -> None:
    """The app is closing: flush and release resources."""


@hookspec
def jamgate_prepare_candidate(candidate: Candidate) -> dict[str, Any] | None:
    """Before any stage: return field updates for the candidate (e.g. strip a tool wrapper),
    or None. Updates from every implementation are applied in call order."""


@hookspec(firstresult=True)
def jamgate_run_stage(stage: Stage, candidate: Candidate, ctx: StageContext) -> StageResult | None:
    """Run one stage. The core's `trylast` implementation calls `stage.evaluate`; a
    `wrapper=True` implementation can time, trace or inject faults around it."""


@hookspec
def jamgate_decision(verdict: Verdict, candidate: Candidate, redact: bool, origin: str) -> None:
    """Observe the final verdict of a real (not dry-run) save: the gate log, metrics.
    `redact` is true when the text must not be written anywhere but the store: a refused
    credential, or a random token that may be one (D-381). Errors are reported and never
    change the verdict."""


@hookspec
def jamgate_forgotten(record: MemoryRecord, origin: str) -> None:
    """Observe a memory that was forgotten (deleted)."""


@hookspec(firstresult=True)
def jamgate_redact(text: str, reason_code: str) -> str | None:
    """How a text marked `redact` appears where it is recorded; the first non-None answer wins.
    The default is `[redacted: N characters]`."""


@hookspec
def jamgate_recall_filter(
    results: list[ScoredMemory], query: str, scope: str
) -> list[ScoredMemory] | None:
    """Post-process recall hits; return a new list, or None to leave them as they are."""


@hookspec
def jamgate_recall_subjects(query: str) -> list[str] | None:
    """The canonical subjects a recall query asks about in the person's own words ("where do
    I live" → `location`); the live records of those subjects lead its answer. Every answer
    is joined, in order; None or an empty list asks about none."""


@hookspec
def jamgate_register_tools(register: Callable[..., None], app: Application) -> None:
    """Contribute extra MCP tools: `register(name, description, input_schema, handler)`, where
    `handler(arguments: dict, provenance) -> dict` returns the structured result."""


@hookspec
def jamgate_register_commands(register: Register, subparsers: Any) -> None:
    """Contribute `jamgate <command>` CLI commands: `register(name, help, func, json=False,
    app=False)` adds one and returns its argparse parser for the command's own arguments;
    `func(args) -> int` runs it (`func(app, args)` with `app=True`, on the opened app; `json`
    adds `--json`). `subparsers` (the argparse sub-parsers) is kept for older plugins."""


@hookspec
def jamgate_register_benchmarks(register: Register, subparsers: Any) -> None:
    """Contribute `jamgate bench <name>` benchmarks, with the same `register` as
    `jamgate_register_commands`."""


@hookspec(firstresult=True)
def jamgate_authenticate(headers: dict[str, str], settings: Settings) -> str | None:
    """Map an HTTP request's headers to a principal name, or None for unauthenticated."""


@hookspec
def jamgate_doctor(app: Application) -> list[tuple[str, str]] | None:
    """Add checks to `jamgate doctor`: a list of `(level, message)`, level one of
    `ok`, `warning`, `error`."""
