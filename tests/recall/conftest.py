"""Recall tests: a fixture building started apps on the test's home."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from jamgate_core.app import App
from jamgate_core.settings import Settings


@pytest.fixture
def make_app(jamgate_home: Path) -> Iterator[Callable[..., App]]:
    """Build started apps on the test's home; all are closed at the end."""
    apps: list[App] = []

    def build(**settings: object) -> App:
        app = App(Settings(home=jamgate_home, **settings)).start()  # type: ignore[arg-type]
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.close()
