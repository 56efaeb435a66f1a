"""Saving through a whole app, for the stateful stages' tests (the `app` fixture of conftest)."""

from __future__ import annotations

from typing import Any

from jamgate_core.app import App
from jamgate_core.models import SaveRequest


def save(app: App, text: str, **fields: Any) -> Any:
    """Save `text` as the user's own word unless `source` says otherwise."""
    fields.setdefault("source", "user-explicit")
    return app.save(SaveRequest(text=text, **fields))
