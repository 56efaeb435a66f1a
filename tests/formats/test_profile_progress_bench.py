"""The memory://profile text, the progress bar, export streams and the import benchmark."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from datetime import timedelta

import pytest
from formats_kit import Run

from jamgate_commands.transfer import ProgressBar
from jamgate_core.app import open_app
from jamgate_core.errors import NotFound
from jamgate_core.models import SaveRequest, utcnow
from jamgate_core.settings import load_settings
from jamgate_server.profile import PROFILE_URI, profile_text, read_profile

DAY = timedelta(days=1)


def fill_profile() -> None:
    app = open_app(load_settings())
    try:
        now = utcnow()
        app.save_batch([
            SaveRequest(text="Jam's name is Jamshid", type="identity", source="user-explicit",
                        created_at=now - 90 * DAY),
            SaveRequest(text="Jam lives in Lisbon", type="identity", created_at=now - DAY),
            SaveRequest(text="Jam prefers concise answers", type="preference",
                        source="user-confirmed", created_at=now - 10 * DAY),
            SaveRequest(text="Jam is migrating the blog to Astro", type="project",
                        created_at=now - DAY),
            SaveRequest(text="Jam prefers metric units", type="preference", scope="work",
                        created_at=now - DAY),
        ])
    finally:
        app.close()


def test_the_profile_holds_durable_memories_most_trusted_first() -> None:
    fill_profile()
    app = open_app(load_settings())
    try:
        text = profile_text(app, 4000)
        work = read_profile(app, PROFILE_URI + "/work")
        with pytest.raises(NotFound):
            read_profile(app, "memory://elsewhere")
    finally:
        app.close()
    assert text.index("## Identity") < text.index("## Preferences")
    assert text.index("Jamshid") < text.index("Lisbon")  # user-explicit before agent-inferred
    assert "Astro" not in text and "metric" not in text
    assert "metric units" in work and "Jamshid" not in work


def test_the_profile_stays_within_its_budget_and_counts_the_rest() -> None:
    fill_profile()
    app = open_app(load_settings())
    try:
        text = profile_text(app, 150)
    finally:
        app.close()
    assert len(text) <= 150
    assert "Jamshid" in text and "more not shown" in text


def test_the_progress_bar_draws_on_a_terminal_only() -> None:
    drawn = io.StringIO()
    bar = ProgressBar(4, "importing", stream=drawn, enabled=True, width=4)
    for _ in range(4):
        bar.advance()
    bar.close()
    assert drawn.getvalue().rstrip().endswith("importing [####] 4/4")
    quiet = io.StringIO()
    ProgressBar(4, "importing", stream=quiet).advance()  # a StringIO is not a terminal
    assert quiet.getvalue() == ""


def test_export_writes_the_document_to_stdout_and_the_summary_to_stderr(
        cli: Callable[..., Run]) -> None:
    fill_profile()
    result = cli("export")
    document = json.loads(result.out)
    assert document["format"] == "jamgate" and len(document["memories"]) >= 4
    assert result.err.startswith("jamgate export: ") and "memories" in result.err


def test_the_import_benchmark_prints_its_throughput(cli: Callable[..., Run]) -> None:
    result = cli("bench", "import", "--records", "200")
    assert result.code == 0
    assert "import: 200 records into sqlite" in result.out and "records/s" in result.out
