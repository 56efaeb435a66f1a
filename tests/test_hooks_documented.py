"""docs/hooks.md documents every hook of hookspecs.py; and hook plugins in a real app."""

from __future__ import annotations

import inspect
import re
import time
import types
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pluggy
import pytest

from jamgate_core import hookspecs
from jamgate_core.app import App
from jamgate_core.hookspecs import hookimpl
from jamgate_core.models import SaveRequest, StageResult, Verdict

DOC = Path(__file__).resolve().parents[1] / "docs" / "hooks.md"


def spec_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    return pm


def hook_names() -> list[str]:
    pm = spec_manager()
    return sorted(name for name in vars(pm.hook) if name.startswith("jamgate_"))


def signature_line(name: str) -> str:
    """The hookspec's `def` line, as written in hookspecs.py (joined onto one line)."""
    caller = getattr(spec_manager().hook, name)
    assert caller.spec is not None
    signature = inspect.signature(caller.spec.function)  # annotations stay source text
    params = ", ".join(f"{p.name}: {p.annotation}" for p in signature.parameters.values())
    return f"def {name}({params}) -> {signature.return_annotation}:"


def sections() -> dict[str, str]:
    """`## jamgate_*` heading → the section's text."""
    parts = re.split(r"^## (jamgate_\w+)\s*$", DOC.read_text(encoding="utf-8"), flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def code_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_there_are_hooks_to_document() -> None:
    assert len(hook_names()) >= 13


def test_signature_line_matches_the_source() -> None:
    """The reconstruction is the source's own `def` line where that fits on one line."""
    source = inspect.getsource(hookspecs)
    assert signature_line("jamgate_run_stage") in source
    assert signature_line("jamgate_configure") in source


@pytest.mark.parametrize("name", hook_names())
def test_hook_is_documented(name: str) -> None:
    documented = sections()
    assert name in documented, f"docs/hooks.md has no '## {name}' section"
    section = documented[name]
    assert signature_line(name) in section
    opts = getattr(spec_manager().hook, name).spec.opts
    convention = re.search(r"\*\*Calling convention:\*\* (.*)", section)
    assert convention, f"{name}: no calling convention"
    assert ("firstresult" in convention.group(1)) is bool(opts["firstresult"])
    assert ("historic" in convention.group(1)) is bool(opts["historic"])


def test_no_section_documents_a_hook_that_does_not_exist() -> None:
    assert sorted(sections()) == hook_names()


@pytest.mark.parametrize("name", hook_names())
def test_section_example_is_a_valid_hookimpl(name: str) -> None:
    """Each section's example runs and registers: the hook name and every argument it takes
    exist in the spec (pluggy checks both)."""
    examples = [block for block in code_blocks(sections()[name]) if "@hookimpl" in block]
    assert examples, f"{name}: no example hookimpl"
    for block in examples:
        module = types.ModuleType(f"example_{name}")
        exec(compile(block, f"docs/hooks.md#{name}", "exec"), module.__dict__)
        assert callable(getattr(module, name, None)), f"the {name} example implements another hook"
        pm = spec_manager()
        pm.register(module)
        pm.check_pending()


def test_introduction_examples_register() -> None:
    intro = DOC.read_text(encoding="utf-8").split("\n## jamgate_", 1)[0]
    blocks = [b for b in code_blocks(intro) if "@hookimpl" in b]
    assert len(blocks) == 2
    module = types.ModuleType("example_intro")
    exec(compile(blocks[0], "docs/hooks.md", "exec"), module.__dict__)
    spec_manager().register(module)
    recorder_ns: dict[str, Any] = {"hookimpl": hookimpl, "app": types.SimpleNamespace(
        pm=spec_manager())}
    exec(compile(blocks[1], "docs/hooks.md", "exec"), recorder_ns)
    recorder_ns["app"].pm.check_pending()


# ---- hook plugins in a real app -----------------------------------------------------------

class DecisionRecorder:
    def __init__(self) -> None:
        self.seen: list[tuple[str, str, str]] = []

    @hookimpl
    def jamgate_decision(self, verdict: Verdict, origin: str) -> None:
        self.seen.append((verdict.decision, verdict.reason_code, origin))


class StageTimer:
    def __init__(self) -> None:
        self.timings: list[tuple[str, float]] = []

    @hookimpl(wrapper=True)
    def jamgate_run_stage(self, stage: Any) -> Generator[None, StageResult, StageResult]:
        start = time.perf_counter()
        try:
            return (yield)
        finally:
            self.timings.append((stage.name, time.perf_counter() - start))


class FaultInjector:
    """Makes one stage fail, to see the gate fail closed."""

    def __init__(self, victim: str) -> None:
        self.victim = victim

    @hookimpl(wrapper=True)
    def jamgate_run_stage(self, stage: Any) -> Generator[None, StageResult, StageResult]:
        if stage.name == self.victim:
            raise RuntimeError("injected fault")
        return (yield)


class BrokenObserver:
    @hookimpl
    def jamgate_decision(self, verdict: Verdict) -> None:
        raise RuntimeError("metrics backend is down")

    @hookimpl
    def jamgate_shutdown(self) -> None:
        raise RuntimeError("cannot flush")


@pytest.fixture
def app(monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.setenv("JAMGATE_STORE", "memory")
    with App() as started:
        yield started


def test_decisions_are_observed(app: App) -> None:
    recorder = DecisionRecorder()
    app.pm.register(recorder)
    saved = app.save(SaveRequest(text="Jam lives in Athens"), origin="cli")
    refused = app.save(SaveRequest(text="ok"))
    app.check(SaveRequest(text="Jam drinks tea every morning"))  # a dry run: not reported
    assert saved.decision == "saved"
    assert refused.decision == "rejected"
    assert recorder.seen == [
        ("saved", saved.reason_code, "cli"),
        ("rejected", refused.reason_code, "mcp"),
    ]


def test_a_wrapper_times_every_stage(app: App) -> None:
    timer = StageTimer()
    app.pm.register(timer)
    assert app.save(SaveRequest(text="Jam lives in Athens")).decision == "saved"
    assert [name for name, _ in timer.timings] == [s.stage.name for s in app.stages]
    assert all(0 <= seconds < 5 for _, seconds in timer.timings)
    timer.timings.clear()
    assert app.save(SaveRequest(text="ok")).decision == "rejected"
    assert 0 < len(timer.timings) < len(app.stages)  # the gate stops at the first refusal


def test_a_wrapper_can_inject_a_fault_and_the_gate_fails_closed(app: App) -> None:
    victim = app.stages[-1].stage.name
    app.pm.register(FaultInjector(victim))
    verdict = app.save(SaveRequest(text="Jam lives in Athens"))
    assert verdict.decision == "rejected"
    assert verdict.reason_code == f"stage_error.{app.stages[-1].name}"
    assert "injected fault" in verdict.message
    assert app.list().memories == []


def test_a_failing_observer_never_breaks_a_save(
    app: App, caplog: pytest.LogCaptureFixture
) -> None:
    before, after = DecisionRecorder(), DecisionRecorder()
    app.pm.register(before)
    app.pm.register(BrokenObserver(), name="broken-metrics")
    app.pm.register(after)
    verdict = app.save(SaveRequest(text="Jam lives in Athens"))
    assert verdict.decision == "saved"
    assert [m.id for m in app.list().memories] == [verdict.id]
    assert before.seen == after.seen == [("saved", verdict.reason_code, "mcp")]
    err = caplog.text  # reported through logging (D-169), not swallowed
    assert "broken-metrics failed in jamgate_decision" in err
    assert "metrics backend is down" in err
    gate_log = app.settings.gate_log_path(app.store_dir())
    assert gate_log is not None and verdict.id is not None
    assert verdict.id in gate_log.read_text(encoding="utf-8")
    app.close()  # a failing shutdown observer does not stop the close either
    assert "failed in jamgate_shutdown" in caplog.text


class EditorQuestion:
    @hookimpl
    def jamgate_recall_subjects(self, query: str) -> list[str] | None:
        return ["editor"] if "my editor" in query else None


def test_a_subject_a_query_asks_about_leads_the_answer(app: App) -> None:
    editor = app.save(SaveRequest(text="Jam codes in Neovim every day", subject="editor"))
    other = app.save(SaveRequest(text="My editor at the newspaper is Maria"))
    assert editor.decision == other.decision == "saved"
    assert [m.id for m in app.recall("who is my editor").memories][:1] == [other.id]
    app.pm.register(EditorQuestion())
    assert [m.id for m in app.recall("who is my editor").memories][:2] == [editor.id, other.id]
    assert [m.id for m in app.recall("Maria").memories] == [other.id]  # other queries: as before
