"""The typed facade over the plugin manager: the only place that calls `pm.hook.*`."""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

import pluggy

from jamgate_core import hookspecs
from jamgate_core.hookspecs import hookimpl

if TYPE_CHECKING:
    from jamgate_core.contracts import Application
    from jamgate_core.models import Candidate, MemoryRecord, ScoredMemory, StageResult, Verdict
    from jamgate_core.settings import Settings
    from jamgate_core.stage import Stage, StageContext

log = logging.getLogger("jamgate")
CORE_PLUGIN = "jamgate-core"


class _CoreImpls:
    """The core's own default implementations."""

    @hookimpl(trylast=True)
    def jamgate_run_stage(
        self, stage: Stage, candidate: Candidate, ctx: StageContext
    ) -> StageResult:
        return stage.evaluate(candidate, ctx)

    @hookimpl(trylast=True)
    def jamgate_redact(self, text: str) -> str:
        return f"[redacted: {len(text)} characters]"


def make_plugin_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(_CoreImpls(), name=CORE_PLUGIN)
    return pm


class Hooks:
    """One method per hookspec, typed. Observer hooks never let an error escape."""

    def __init__(self, pm: pluggy.PluginManager) -> None:
        self.pm = pm

    def configure(self, settings: Settings) -> None:
        self.pm.hook.jamgate_configure.call_historic(kwargs={"settings": settings})

    def startup(self, app: Application) -> None:
        self.pm.hook.jamgate_startup(app=app)

    def shutdown(self, app: Application) -> None:
        self._observe("jamgate_shutdown", app=app)

    def prepare_candidate(self, candidate: Candidate) -> Candidate:
        for updates in reversed(self.pm.hook.jamgate_prepare_candidate(candidate=candidate)):
            if updates:
                candidate = candidate.model_copy(update=updates)
        return candidate

    def run_stage(self, stage: Stage, candidate: Candidate, ctx: StageContext) -> StageResult:
        caller = self.pm.hook.jamgate_run_stage
        impls = caller.get_hookimpls()
        if len(impls) == 1 and impls[0].plugin_name == CORE_PLUGIN:
            return stage.evaluate(candidate, ctx)  # only the core's: skip pluggy's dispatch
        result: StageResult = caller(stage=stage, candidate=candidate, ctx=ctx)
        return result

    def decision(self, verdict: Verdict, candidate: Candidate, redact: bool, origin: str) -> None:
        self._observe(
            "jamgate_decision", verdict=verdict, candidate=candidate, redact=redact, origin=origin
        )

    def forgotten(self, record: MemoryRecord, origin: str) -> None:
        self._observe("jamgate_forgotten", record=record, origin=origin)

    def redact(self, text: str, reason_code: str) -> str:
        result: str = self.pm.hook.jamgate_redact(text=text, reason_code=reason_code)
        return result

    def recall_subjects(self, query: str) -> list[str]:
        answers = self.pm.hook.jamgate_recall_subjects(query=query)
        return list(dict.fromkeys(s for answer in answers if answer for s in answer))

    def recall_filter(
        self, results: list[ScoredMemory], query: str, scope: str
    ) -> list[ScoredMemory]:
        for replaced in reversed(
            self.pm.hook.jamgate_recall_filter(results=results, query=query, scope=scope)
        ):
            if replaced is not None:
                results = replaced
        return results

    def register_tools(self, register: Callable[..., None], app: Application) -> None:
        self.pm.hook.jamgate_register_tools(register=register, app=app)

    def register_commands(self, register: Callable[..., Any], subparsers: Any) -> None:
        self.pm.hook.jamgate_register_commands(register=register, subparsers=subparsers)

    def register_benchmarks(self, register: Callable[..., Any], subparsers: Any) -> None:
        self.pm.hook.jamgate_register_benchmarks(register=register, subparsers=subparsers)

    def authenticate(self, headers: dict[str, str], settings: Settings) -> str | None:
        principal: str | None = self.pm.hook.jamgate_authenticate(
            headers=headers, settings=settings
        )
        return principal

    def doctor(self, app: Application) -> list[tuple[str, str]]:
        checks: list[tuple[str, str]] = []
        for found in self.pm.hook.jamgate_doctor(app=app):
            checks.extend(found or [])
        return checks

    def _observe(self, name: str, **kwargs: Any) -> None:
        """Call an observer hook as pluggy would — its order (last registered first,
        `tryfirst`/`trylast`), wrappers (`wrapper=True` and old-style `hookwrapper=True`)
        around the plain implementations — except that a failing implementation is reported
        on stderr and the others still run: an observer must never break a save."""
        caller = getattr(self.pm.hook, name)
        order = list(reversed(caller.get_hookimpls()))  # pluggy calls the list from its end
        wrappers = [impl for impl in order if impl.wrapper or impl.hookwrapper]
        started: list[tuple[Any, Generator[Any, Any, Any]]] = []
        for impl in wrappers:
            try:
                gen = impl.function(*[kwargs[arg] for arg in impl.argnames])
                next(gen)
                started.append((impl, gen))
            except Exception as exc:
                _report(impl, name, exc)
        for impl in order:
            if impl.wrapper or impl.hookwrapper:
                continue
            try:
                impl.function(*[kwargs[arg] for arg in impl.argnames])
            except Exception as exc:
                _report(impl, name, exc)
        for impl, gen in reversed(started):
            try:
                gen.send(pluggy.Result(None, None) if impl.hookwrapper else None)
            except StopIteration:
                continue
            except Exception as exc:
                _report(impl, name, exc)


def _report(impl: Any, hook: str, exc: BaseException) -> None:
    logging.getLogger(__name__).error("%s failed in %s: %r", impl.plugin_name, hook, exc)
