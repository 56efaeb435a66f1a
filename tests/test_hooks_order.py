"""Observer hooks run as pluggy runs them: its order and its wrappers, with failures isolated."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from jamgate_core import hookimpl
from jamgate_core.hooks import Hooks, make_plugin_manager


class Recorder:
    def __init__(self, name: str, calls: list[str], fail: bool = False) -> None:
        self.name, self.calls, self.fail = name, calls, fail

    @hookimpl
    def jamgate_forgotten(self, origin: str) -> None:
        self.calls.append(f"{self.name}:{origin}")
        if self.fail:
            raise RuntimeError("boom")


class Wrapper:
    def __init__(self, calls: list[str]) -> None:
        self.calls = calls

    @hookimpl(wrapper=True)
    def jamgate_forgotten(self) -> Generator[None, Any, Any]:
        self.calls.append("wrap:before")
        result = yield
        self.calls.append("wrap:after")
        return result


class OldStyleWrapper:
    def __init__(self, calls: list[str]) -> None:
        self.calls = calls

    @hookimpl(hookwrapper=True)
    def jamgate_forgotten(self) -> Generator[None, Any, None]:
        self.calls.append("old:before")
        yield
        self.calls.append("old:after")


class Early:
    def __init__(self, calls: list[str]) -> None:
        self.calls = calls

    @hookimpl(tryfirst=True)
    def jamgate_forgotten(self) -> None:
        self.calls.append("early")


def managers(*plugins: Any) -> Any:
    pm = make_plugin_manager()
    for n, plugin in enumerate(plugins):
        pm.register(plugin, name=f"p{n}")
    return pm


def test_observers_run_in_pluggys_order_with_wrappers_around_them() -> None:
    direct: list[str] = []
    pm = managers(Recorder("a", direct), Early(direct), Recorder("b", direct),
                  Wrapper(direct), OldStyleWrapper(direct))
    pm.hook.jamgate_forgotten(record=None, origin="x")

    facade: list[str] = []
    pm = managers(Recorder("a", facade), Early(facade), Recorder("b", facade),
                  Wrapper(facade), OldStyleWrapper(facade))
    Hooks(pm).forgotten(None, "x")  # type: ignore[arg-type]

    assert facade == direct
    assert facade[0] == "old:before" and facade[-1] == "old:after"
    assert facade.index("early") < facade.index("b:x") < facade.index("a:x")


def test_a_failing_observer_is_reported_and_the_others_still_run(
        caplog: pytest.LogCaptureFixture) -> None:
    calls: list[str] = []
    pm = managers(Recorder("a", calls), Recorder("b", calls, fail=True), Wrapper(calls))
    Hooks(pm).forgotten(None, "x")  # type: ignore[arg-type]
    assert calls == ["wrap:before", "b:x", "a:x", "wrap:after"]
    assert "p1 failed in jamgate_forgotten" in caplog.text
