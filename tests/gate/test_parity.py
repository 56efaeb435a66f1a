"""Parity with the predecessor (reference §2, §5.4, §6, §14): the rules no other test pins.

Each test names the reference section it settles. Where we decide differently from the
predecessor the expected value is ours and the docstring names the decision;
docs/predecessor-parity.md maps every rule and quirk to its test or decision.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from jamgate_commands.bench_gate import GateCase, run_case, stateless_stages
from jamgate_core.app import App, open_app
from jamgate_core.arguments import save_request
from jamgate_core.errors import InvalidArgument
from jamgate_core.models import (
    SaveRequest,
    canonical_scope,
    canonical_subject,
    parse_iso,
    utcnow,
)
from jamgate_core.settings import load_settings


@pytest.fixture(params=["memory", "sqlite"])
def app(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> Iterator[App]:
    monkeypatch.setenv("JAMGATE_STORE", request.param)
    monkeypatch.setenv("JAMGATE_GATE_LOG", str(tmp_path / "gate.log"))
    application = open_app(load_settings())
    yield application
    application.close()


def save(app: App, text: str, **kwargs: Any) -> Any:
    return app.save(SaveRequest(text=text, **kwargs))


def log_lines(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# §14.2: every rule edge case the reference lists, with the verdict we decided on.
# (text, expected reason code or None for a pass). A pass of a credential-shaped text is
# below the shape's threshold; a refusal of one by a non-secret rule is a shorter-than-shape
# fragment that still never reaches the store.
EDGE_CASES: list[tuple[str, str | None]] = [
    # Pleasantries: the predecessor matched whole text only, so these were saved (fixed, D-085).
    ("thank you!", "prefilter.pleasantry"),
    ("thanks a lot", "prefilter.pleasantry"),
    ("ok cool", "prefilter.pleasantry"),
    ("hello there", "prefilter.pleasantry"),
    ("good morning", "prefilter.pleasantry"),
    ("lol lol", "prefilter.pleasantry"),
    # Fragments: "n/a n/a" and "12 34" were accepted (fixed: two meaningful words, D-085).
    ("n/a n/a", "junk.fragment"),
    ("12 34", "junk.fragment"),
    ("1234", "junk.fragment"),
    ("abcd", "junk.fragment"),
    ("jam 😀", "junk.fragment"),
    ("😀😀😀😀", "prefilter.pleasantry"),  # emoji only (D-085); was "not a statement"
    ("x" * 32_000, "junk.fragment"),  # matched: one token, not too long
    ("x" * 32_001, "prefilter.too_long"),
    # Weather: the predecessor refused these durable facts (fixed, D-085).
    ("jam likes the weather in Athens", None),
    ("jam hates raining days", None),
    ("jam likes snowing days", None),
    # Matched.
    ("jam lives in Athens. It's sunny.", "junk.transient"),
    ("jam is tired today", "classifier.transient"),  # D-123: passing state without a state type
    ("jam is currently feeling tired", "junk.transient"),
    ("It is 25°C", "junk.transient"),
    ("It is 25 °C", "junk.transient"),
    ("It is -3°C", "junk.transient"),
    # Questions (matched), and Persian openers live as Python's \b makes them (D-085).
    ("jam likes tea?", "junk.question"),
    ("jam likes tea. really?", None),
    ("What. jam likes tea. really?", "junk.question"),
    ("jam likes tea？  ", "junk.question"),
    ("چرا جم چای دوست دارد. واقعا؟", "junk.question"),
    ("جم چای دوست دارد؟", "junk.question"),
    # Persian "now" only as a whole word (D-085); the predecessor matched any substring.
    ("jam is at home الان", "junk.transient"),
    ("jam الانسان", None),
    # Credentials: every threshold of §14.2.
    ("password: changeme", None),
    ("password: hunter2", "secret.password"),
    ("password: abcdefghij", "secret.password"),
    ("pwd=abc123", "secret.password"),
    ("api key: sk-abc", "secret.password"),
    # 15 characters are no API key; an agent's bare fragment sits at the classifier's floor
    # (junk or kept, by retrain: D-211, D-217; so is 19 after "bearer" since D-284)
    ("sk-" + "a" * 15, "classifier.junk"),
    ("sk-" + "a" * 16, "secret.api_key"),
    ("bearer " + "a" * 19, "classifier.junk"),
    ("bearer " + "a" * 20, "secret.bearer_token"),
    ("token: abcdefghijklmnopqrstuvwxyz", None),
    ("token: Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op", "secret.password"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----", "secret.private_key"),
    ("AKIA" + "A" * 16, "secret.aws_key"),
    ("ghp_" + "a" * 20, "secret.github_token"),
    ("xoxb-" + "a" * 10, "secret.slack_token"),
    ('password: "abcdefg"', "secret.password"),
    ("password = ab1", None),
    ("my password is secret", None),
    ("the password is required", None),
    ("jam's password manager is 1Password", None),
    ("the password for jam's postgres database is Hunter2-Correct-Horse", "secret.password"),
    ("the password for the wifi is printed on the router", None),
    ("my api key for openai is in the .env file", None),
    # The >60-character preposition escape is closed (100 characters, D-085).
    ("the password for the very long descriptive name of the account that jam uses daily "
     "is Hunter2x", "secret.password"),
]


@pytest.mark.parametrize(("text", "expected"), EDGE_CASES,
                         ids=[f"{i:02d}" for i in range(len(EDGE_CASES))])
def test_rule_edge_cases(text: str, expected: str | None) -> None:
    """§14.2: the stateless rules on every edge case the reference lists."""
    outcome = run_case(GateCase(text=text, category="parity", expect="pass", origin="§14.2"),
                       stateless_stages())
    assert outcome.reason_code == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("the sky is blue", "sky"),
    ("her car was red", None),  # D-429: whose car is unclear
    ("jam's ex is nice", None),
    ("my os is linux", "operating-system"),
    ("jam's dog is called Rex", "jam-dog-name"),  # D-084: a named holder prefixes
    # D-084's prefix; two facts in one text derive no subject since D-441 (§14.2 had
    # `jam-email`): a change of the email must not retire the bike's colour
    ("jam's bike is red and his email is x@y.io", None),
    ("jam is in utc+2", "jam-timezone"),  # D-084
])
def test_subject_edge_cases(text: str, expected: str | None) -> None:
    """§14.2 subject derivation, with D-084's prefixes where we differ."""
    outcome = run_case(GateCase(text=text, category="parity", expect="pass", origin="§14.2"),
                       stateless_stages())
    assert outcome.decision == "pass" and outcome.subject == expected


def test_credentials_run_before_every_other_content_rule(app: App) -> None:
    """§2.2 rule 3: a type never launders a secret past the transience rule, and a secret in a
    question or a pleasantry is refused as a secret (redacted), not as a question."""
    token = "Ab1Cd2Ef3Gh4" + "Ij5Kl6Mn7Op"
    for text, kwargs in [
        (f"right now the api token is {token}", {"type": "state"}),
        (f"is my password {token}?", {}),
        (f"thanks! password: {token}", {}),
    ]:
        verdict = save(app, text, **kwargs)
        assert verdict.decision == "rejected" and verdict.reason_code.startswith("secret.")
        assert token not in verdict.message
    assert app.list(status="all").memories == []


def test_scopes_confine_duplicates_and_supersession(app: App) -> None:
    """§2.5.1 / §2.12: two scopes may hold the same text, the same subject and contradictory
    facts; nothing in one scope retires or blocks anything in the other."""
    home = save(app, "Jam lives in Athens", subject="location", source="user-explicit")
    work = save(app, "Jam lives in Athens", subject="location", scope="Work")
    assert (home.decision, work.decision) == ("saved", "saved")  # no duplicate, no conflict
    other = save(app, "Jam lives in Berlin", subject="location", scope="work")
    assert other.superseded_ids == [work.id]  # scope folded: "Work" == "work"
    assert [m.id for m in app.list().memories] == [home.id]
    assert canonical_scope("  Work ") == "work" and canonical_scope("  ") == "default"


def test_forget_from_another_scope_is_not_found(app: App) -> None:
    """§2.12: an exact id from another scope is not found."""
    saved = save(app, "Jam prefers Emacs", scope="work")
    with pytest.raises(Exception, match='scope "default"'):
        app.forget(saved.id)
    assert [m.id for m in app.list(scope="work").memories] == [saved.id]


def test_subject_canonicalisation_on_write_and_compare(app: App) -> None:
    """§2.8: runs of whitespace, `.` and `_` fold to `-`; `/` is kept; `a.b` ≠ `a`."""
    assert canonical_subject(" Location.City ") == "location-city"
    assert canonical_subject("location__city") == "location-city"
    assert canonical_subject("location/city") == "location/city"
    assert canonical_subject(" - ") is None
    legacy = save(app, "Jam lives in Athens", subject="location.city")
    assert legacy.memory.subject == "location-city"
    broader = save(app, "Jam lives in Greece", subject="location")
    assert broader.superseded_ids == []  # no subsumption
    newer = save(app, "Jam lives in Berlin", subject="Location City")
    assert newer.superseded_ids == [legacy.id]


def test_conflict_advice_names_the_stronger_source(app: App) -> None:
    """§2.9 / §14.1 #7 (D-080): user-confirmed against user-explicit is a conflict whose advice
    names user-explicit; user-explicit over user-confirmed supersedes."""
    first = save(app, "Jam works at Acme", subject="employer", source="user-explicit")
    conflict = save(app, "Jam works at Initech", subject="employer", source="user-confirmed")
    assert (conflict.decision, conflict.reason_code) == ("conflict", "trust.conflict")
    assert conflict.id == first.id and '"user-explicit"' in conflict.message
    assert "user-confirmed or user-explicit" not in conflict.message
    confirmed = save(app, "Jam has a cat", subject="pet", source="user-confirmed")
    explicit = save(app, "Jam has a dog", subject="pet", source="user-explicit")
    assert explicit.superseded_ids == [confirmed.id]


def test_notices_only_for_short_lived_human_saves(app: App) -> None:
    """§2.6: durable and long-lived types never get the short-lifespan notice; a
    user-confirmed state does."""
    assert save(app, "Jam likes the sea", type="preference", source="user-explicit").notices == []
    assert save(app, "Jam is rewriting the parser", type="project",
                source="user-explicit").notices == []
    notice = save(app, "Jam is in Crete this week", type="state", source="user-confirmed").notices
    assert len(notice) == 1 and "expires on" in notice[0] and "state" in notice[0]


def test_expiry_is_stamped_at_save_time_from_the_save_type(app: App) -> None:
    """§5.4: expires_at comes from the save's type; changing the TTL later re-stamps
    nothing; untyped saves never expire."""
    state = save(app, "Jam is at the dentist this afternoon", type="state")
    untyped = save(app, "Jam likes figs")
    assert state.memory.expires_at is not None and untyped.memory.expires_at is None
    lifespan = parse_iso(state.memory.expires_at) - parse_iso(state.memory.created_at)
    assert lifespan == timedelta(days=2)
    app.settings.ttl_state_days = "30"
    record = app.store.get("default", state.id)
    assert record is not None and record.expires_at == parse_iso(state.memory.expires_at)


@pytest.mark.parametrize("value", ["never", "NONE", "off"])
def test_ttl_never_words(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    """§5.4: `never`/`none`/`off` (any case) mean no expiry."""
    monkeypatch.setenv("JAMGATE_TTL_PROJECT_DAYS", value)
    assert load_settings().ttl_days()["project"] is None


def test_compaction_is_periodic_not_on_every_write(app: App) -> None:
    """§5.4 (proposed decision): records past their grace are dropped by `compact`, by the
    first stored save of a process and then every few hundred, not inside every write as the
    predecessor did."""
    app.settings.ttl_state_days = "0"
    app.settings.compact_grace_days = 0
    save(app, "Jam likes aisle seats on short flights", type="preference")  # compacts once
    gone = save(app, "Jam is boarding a plane", type="state")
    save(app, "Jam likes window seats", type="preference")
    assert [m.id for m in app.expired()] == [gone.id]  # still on disk after another write
    assert app.compact() == 1
    assert app.expired() == []


def test_import_runs_the_whole_gate_and_keeps_scope_and_ttl(app: App) -> None:
    """§2.10 / §14.1 #1-3 (fixed): an imported batch goes through every stage, keeps its scope,
    and gets a TTL from its type."""
    token = "Tr0ub4dor&3xK"
    verdicts = app.save_batch([
        SaveRequest(text=f"password: {token}"),
        SaveRequest(text="test"),
        SaveRequest(text="Where does Jam live?"),
        SaveRequest(text="Jam moved to Lisbon in May", scope="Personal"),
        SaveRequest(text="Jam is on holiday in Crete", type="state",
                    created_at=utcnow() - timedelta(hours=1)),
    ])
    codes = [v.reason_code for v in verdicts]
    assert codes[0].startswith("secret.") and codes[1].startswith("junk.")
    assert codes[2] == "junk.question"
    assert verdicts[3].decision == "saved" and verdicts[3].memory.scope == "personal"
    assert verdicts[4].memory.expires_at is not None
    assert token not in json.dumps([v.model_dump(mode="json") for v in verdicts])


def test_argument_extraction(monkeypatch: pytest.MonkeyPatch) -> None:
    """§2.0: the first usable of text/content/memory wins; blank optional strings are absent;
    a non-string optional argument is a usage error naming its kind (the predecessor
    stringified it over MCP and ignored it over REST: proposed decision)."""
    request = save_request({"text": "   ", "content": "Jam owns a kayak", "type": "",
                            "subject": " ", "scope": ""})
    assert (request.text, request.type, request.subject, request.scope) == (
        "Jam owns a kayak", None, None, "default")
    with pytest.raises(InvalidArgument, match='"type" must be a string'):
        save_request({"text": "Jam owns a kayak", "type": 5})
    with pytest.raises(InvalidArgument, match='unknown type "fact"'):
        save_request({"text": "Jam owns a kayak", "type": "fact"})


def test_what_the_log_records_and_what_it_never_does(app: App, tmp_path: Path) -> None:
    """§6: refusals and stored outcomes are logged; a dry run, a recall and a failed forget
    are not; a refused secret is logged redacted."""
    path = tmp_path / "gate.log"
    save(app, "thanks!")
    save(app, "Jam lives in Athens")
    save(app, "password: " + "Tr0ub4dor&3xK")
    assert [line["decision"] for line in log_lines(path)] == ["rejected", "saved", "rejected"]
    assert "Tr0ub4dor" not in path.read_text(encoding="utf-8")
    before = len(log_lines(path))
    app.check(SaveRequest(text="Jam likes figs"))
    app.recall("athens")
    with pytest.raises(Exception):  # noqa: B017 - not found is the store's error type
        app.forget("0123456789abcdef")
    assert len(log_lines(path)) == before


@pytest.mark.parametrize("value", ["", "  ", "OFF", "none", "0"])
def test_gate_log_disabled_by_empty_and_off_words(monkeypatch: pytest.MonkeyPatch,
                                                  value: str) -> None:
    """§6 / §14.2: an empty `JAMGATE_GATE_LOG` disables the log, as `off`/`none`/`0` do."""
    monkeypatch.setenv("JAMGATE_GATE_LOG", value)
    assert load_settings().gate_log_path(None) is None
