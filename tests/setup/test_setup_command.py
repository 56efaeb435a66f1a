"""`jamgate setup` against a fake home holding a user's real-shaped client configs."""

from __future__ import annotations

import difflib
import json
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any

from setup_helpers import (
    FIXTURE_HOME,
    FOLDERS,
    PATHS,
    Run,
    outcomes,
    run_json,
    snapshot,
)

from jamgate_commands.clients import jsonedit

JAMGATE = str(Path(sys.prefix) / "bin" / "jamgate")
CONTAINERS = {"claude-code": "mcpServers", "claude-desktop": "mcpServers",
              "cursor": "mcpServers", "windsurf": "mcpServers", "gemini-cli": "mcpServers",
              "vscode": "servers", "cline": "mcpServers", "cline-cli": "mcpServers",
              "roo": "mcpServers",
              "opencode": "mcp", "zed": "context_servers", "codex": "mcp_servers"}
FIRST_RUN = {
    "claude-code": "configured", "claude-desktop": "configured",
    "cursor": "preserved",  # wired remote already: a plain run does not downgrade it
    "windsurf": "skipped",  # cut short mid-write: not JSON
    "gemini-cli": "configured",
    "vscode": "configured",  # JSON with comments and a trailing comma
    "cline": "updated",  # the predecessor's `npx jamgate` entry
    "cline-cli": "configured",  # JSON with a comment
    "roo": "configured",  # folder present, settings file not yet: created
    "opencode": "configured",
    "zed": "configured",  # JSON with comments
    "codex": "configured",
}


def load(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    return tomllib.loads(text) if path.suffix == ".toml" else jsonedit.parse(text)


def entry(home: Path, client: str) -> Any:
    return load(home / PATHS[client])[CONTAINERS[client]].get("jamgate")


# ---- first run, second run, backups --------------------------------------------------------


def test_first_run_wires_second_run_changes_no_byte(run: Run, home: Path) -> None:
    first = run_json(run, home, "setup")
    assert outcomes(first) == FIRST_RUN
    assert first["command"] == [JAMGATE, "serve"]
    after_first = snapshot(home)

    second = run_json(run, home, "setup")
    assert snapshot(home) == after_first
    assert outcomes(second) == {
        client: {"configured": "already-configured", "updated": "already-configured"}.get(
            outcome, outcome) for client, outcome in FIRST_RUN.items()}


def test_entries_have_each_clients_shape(run: Run, home: Path) -> None:
    run_json(run, home, "setup")
    stdio = {"command": JAMGATE, "args": ["serve"]}
    assert entry(home, "claude-code") == {"type": "stdio", **stdio}
    assert entry(home, "claude-desktop") == stdio
    assert entry(home, "gemini-cli") == stdio
    assert entry(home, "roo") == stdio
    assert entry(home, "codex") == stdio
    assert entry(home, "opencode") == {"type": "local", "command": [JAMGATE, "serve"],
                                       "enabled": True}
    # The user's own keys inside the old entry stay; the ones setup owns are replaced.
    assert entry(home, "cline") == {**stdio, "disabled": False,
                                    "autoApprove": ["recall_memory", "check_memory"]}


def test_backups_hold_the_original_bytes(run: Run, home: Path) -> None:
    report = run_json(run, home, "setup")
    for item in report["clients"]:
        path = home / PATHS[item["client"]]
        backup = path.with_name(path.name + ".jamgate-backup")
        original = FIXTURE_HOME / PATHS[item["client"]]
        if item["outcome"] in ("configured", "updated") and original.exists():
            assert item["backup"] == str(backup)
            assert backup.read_bytes() == original.read_bytes(), item["client"]
            assert path.read_bytes() != original.read_bytes()
        else:
            assert not backup.exists(), item["client"]
    roo = next(i for i in report["clients"] if i["client"] == "roo")
    assert roo["created"] is True and roo["backup"] is None


def test_other_servers_and_keys_are_untouched(run: Run, home: Path) -> None:
    run_json(run, home, "setup")
    for client, outcome in FIRST_RUN.items():
        original = FIXTURE_HOME / PATHS[client]
        if not original.exists():
            continue
        path = home / PATHS[client]
        if outcome not in ("configured", "updated"):
            assert path.read_bytes() == original.read_bytes(), client
            continue
        before, after = load(original), load(path)
        container = CONTAINERS[client]
        assert set(after) == set(before) | {container}, client
        for key in before:
            if key != container:
                assert after[key] == before[key], (client, key)
        others_before = {k: v for k, v in before.get(container, {}).items() if k != "jamgate"}
        others_after = {k: v for k, v in after[container].items() if k != "jamgate"}
        assert others_after == others_before, client
        assert list(after) == list(before) + [k for k in after if k not in before], client


def test_json_edits_keep_every_other_line(run: Run, home: Path) -> None:
    """The splice only adds lines (and a comma after the member before ours)."""
    run_json(run, home, "setup")
    for client in ("claude-code", "claude-desktop", "gemini-cli", "opencode"):
        before = (FIXTURE_HOME / PATHS[client]).read_text().splitlines()
        after = (home / PATHS[client]).read_text().splitlines()
        remaining = iter(after)
        for line in before:
            assert any(candidate in (line, line + ",") for candidate in remaining), \
                (client, line)


def test_codex_comments_and_layout_survive(run: Run, home: Path) -> None:
    run_json(run, home, "setup")
    before = (FIXTURE_HOME / PATHS["codex"]).read_text()
    after = (home / PATHS["codex"]).read_text()
    for line in before.splitlines():
        assert line in after.splitlines()
    assert "# Docs lookups" in after and "# worth it for refactors" in after
    assert after.index("[mcp_servers.jamgate]") > after.index("[mcp_servers.figma]")
    assert after.index("[mcp_servers.jamgate]") < after.index("[profiles.deep]")
    data = tomllib.loads(after)
    assert data["mcp_servers"]["context7"]["startup_timeout_sec"] == 20
    assert data["projects"] == {"/home/jam/src/atlas": {"trust_level": "trusted"}}


def test_dry_run_writes_nothing_and_shows_the_change(run: Run, home: Path) -> None:
    before = snapshot(home)
    report = run_json(run, home, "setup", "--dry-run")
    assert snapshot(home) == before
    assert report["dry_run"] is True
    assert outcomes(report) == FIRST_RUN
    codex = next(i for i in report["clients"] if i["client"] == "codex")
    assert "+[mcp_servers.jamgate]" in codex["diff"]
    assert all(i["backup"] is None for i in report["clients"])
    text = run(home, "setup", "--dry-run")
    assert "dry run (no files written)" in text.stdout
    assert "would configure (stdio)" in text.stdout
    assert snapshot(home) == before


def test_unreadable_files_are_skipped_with_the_reason(run: Run, home: Path) -> None:
    report = {i["client"]: i for i in run_json(run, home, "setup")["clients"]}
    assert "not valid JSON" in report["windsurf"]["detail"]
    # The report carries the entry to add by hand.
    assert report["windsurf"]["entry"] == {"mcpServers": {"jamgate": {
        "command": JAMGATE, "args": ["serve"]}}}
    text = run(home, "setup").stdout
    assert 'add by hand, under "mcpServers": "jamgate"' in text


def test_files_with_comments_keep_every_byte_outside_the_entry(run: Run, home: Path) -> None:
    run_json(run, home, "setup")
    for client in ("vscode", "zed", "cline-cli"):
        before = (FIXTURE_HOME / PATHS[client]).read_text().splitlines(keepends=True)
        after = (home / PATHS[client]).read_text().splitlines(keepends=True)
        added: list[str] = []
        matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
        for op, a1, a2, b1, b2 in matcher.get_opcodes():
            if op == "insert" or (op == "replace" and a2 - a1 == 1
                                  and after[b1] == before[a1].rstrip("\n") + ",\n"):
                added += after[b1 + (op == "replace"):b2]  # a line may gain its comma
            else:
                assert op == "equal", (client, op, before[a1:a2], after[b1:b2])
        assert '"jamgate": {' in "".join(added), client
        data = jsonedit.parse((home / PATHS[client]).read_text())
        assert data[CONTAINERS[client]]["jamgate"]["command"] == JAMGATE


# ---- remote wirings ------------------------------------------------------------------------


def test_remote_wiring_is_kept_unless_forced(run: Run, home: Path) -> None:
    report = {i["client"]: i for i in run_json(run, home, "setup")["clients"]}
    assert report["cursor"]["transport"] == "remote"
    assert "https://memory.jam.example/mcp" in report["cursor"]["detail"]
    assert "--force" in report["cursor"]["detail"]
    assert entry(home, "cursor")["url"] == "https://memory.jam.example/mcp"

    forced = {i["client"]: i for i in run_json(run, home, "setup", "--force")["clients"]}
    assert forced["cursor"]["outcome"] == "updated"
    assert forced["cursor"]["previous"] == "https://memory.jam.example/mcp"
    assert entry(home, "cursor") == {"command": JAMGATE, "args": ["serve"]}
    assert load(home / PATHS["cursor"])["mcpServers"]["linear"] == {
        "url": "https://mcp.linear.app/sse"}
    backup = home / (PATHS["cursor"] + ".jamgate-backup")
    assert backup.read_bytes() == (FIXTURE_HOME / PATHS["cursor"]).read_bytes()


def test_remote_mode_wires_http_clients_and_skips_the_others(run: Run, home: Path) -> None:
    url, token = "https://memory.jam.example/mcp", "tok-123"
    report = run_json(run, home, "setup", "--remote", url, "--token", token)
    result = {i["client"]: i for i in report["clients"]}
    assert result["claude-desktop"]["outcome"] == "skipped"
    assert "no HTTP transport" in result["claude-desktop"]["detail"]
    headers = {"Authorization": f"Bearer {token}"}
    assert entry(home, "claude-code") == {"type": "http", "url": url, "headers": headers}
    assert entry(home, "cursor") == {"url": url, "headers": headers}
    assert result["cursor"]["outcome"] == "updated"  # was remote with another token
    assert entry(home, "gemini-cli") == {"httpUrl": url, "headers": headers}
    assert entry(home, "cline") == {"type": "streamableHttp", "url": url, "headers": headers}
    assert entry(home, "roo") == {"type": "streamable-http", "url": url, "headers": headers}
    assert entry(home, "opencode") == {"type": "remote", "url": url, "enabled": True,
                                       "headers": headers}
    assert entry(home, "codex") == {"url": url, "http_headers": headers}
    # A file created to hold a token is private to its owner.
    roo = home / PATHS["roo"]
    assert stat.S_IMODE(roo.stat().st_mode) == 0o600
    # A local re-run leaves every remote wiring alone: only Claude Desktop gets wired.
    before = snapshot(home)
    again = run_json(run, home, "setup")
    after = snapshot(home)
    desktop = PATHS["claude-desktop"]
    assert {k for k in after if after[k] != before.get(k)} == {desktop,
                                                               desktop + ".jamgate-backup"}
    assert {c for c, o in outcomes(again).items() if o == "preserved"} == {
        "claude-code", "cursor", "gemini-cli", "vscode", "cline", "cline-cli", "roo",
        "opencode", "zed", "codex"}


def test_remote_mode_needs_a_token_and_a_url(run: Run, home: Path) -> None:
    before = snapshot(home)
    missing = run(home, "setup", "--remote", "https://memory.jam.example/mcp")
    assert missing.returncode == 2 and "bearer token" in missing.stderr
    bad = run(home, "setup", "--remote", "memory.jam.example", "--token", "t")
    assert bad.returncode == 2 and "http:// or https://" in bad.stderr
    stray = run(home, "setup", "--token", "t")
    assert stray.returncode == 2 and "--remote" in stray.stderr
    from_env = run(home, "setup", "--remote", "http://127.0.0.1:8420/mcp", "--client", "cursor",
                   JAMGATE_TOKEN="env-token")
    assert from_env.returncode == 0, from_env.stderr
    assert snapshot(home) != before
    assert entry(home, "cursor")["headers"] == {"Authorization": "Bearer env-token"}


# ---- detection, creation, choice of clients ------------------------------------------------


def test_nothing_installed_creates_nothing(run: Run, empty_home: Path) -> None:
    done = run(empty_home, "setup")
    assert done.returncode == 0
    assert list(empty_home.iterdir()) == []
    assert "No MCP client was wired" in done.stdout
    assert "jamgate status" in done.stdout
    report = run_json(run, empty_home, "setup")
    assert set(outcomes(report).values()) == {"not-found"}


def test_an_installed_client_without_a_file_gets_one(run: Run, empty_home: Path) -> None:
    for folder in FOLDERS.values():
        (empty_home / folder).mkdir(parents=True)
    report = run_json(run, empty_home, "setup")
    assert set(outcomes(report).values()) == {"configured"}
    for client in PATHS:
        assert entry(empty_home, client) is not None, client
    assert (empty_home / PATHS["zed"]).read_text() == (
        '{\n  "context_servers": {\n    "jamgate": {\n      "command": "' + JAMGATE
        + '",\n      "args": [\n        "serve"\n      ]\n    }\n  }\n}\n')
    assert (empty_home / PATHS["codex"]).read_text() == (
        f'[mcp_servers.jamgate]\ncommand = "{JAMGATE}"\nargs = ["serve"]\n')
    assert not list(empty_home.rglob("*.jamgate-backup"))


def test_only_the_chosen_clients(run: Run, home: Path) -> None:
    before = snapshot(home)
    report = run_json(run, home, "setup", "--client", "codex", "--client", "gemini-cli")
    assert outcomes(report) == {"codex": "configured", "gemini-cli": "configured"}
    changed = {k for k in snapshot(home) if snapshot(home)[k] != before.get(k)}
    assert changed == {PATHS["codex"], PATHS["codex"] + ".jamgate-backup",
                       PATHS["gemini-cli"], PATHS["gemini-cli"] + ".jamgate-backup"}
    unknown = run(home, "setup", "--client", "notepad")
    assert unknown.returncode == 2 and "invalid choice" in unknown.stderr


def test_opencode_jsonc_is_wired_in_place(run: Run, empty_home: Path) -> None:
    folder = empty_home / FOLDERS["opencode"]
    folder.mkdir(parents=True)
    (folder / "opencode.jsonc").write_text('{\n  // mine\n  "theme": "nord"\n}\n')
    report = run_json(run, empty_home, "setup", "--client", "opencode")
    item = report["clients"][0]
    assert item["outcome"] == "configured" and item["path"].endswith("opencode.jsonc")
    assert not (folder / "opencode.json").exists()
    text = (folder / "opencode.jsonc").read_text()
    assert text.startswith('{\n  // mine\n  "theme": "nord",\n  "mcp": {\n    "jamgate": {')
    status = {c["client"]: c for c in run_json(run, empty_home, "status")["clients"]}
    assert status["opencode"]["state"] == "wired"
    assert status["opencode"]["path"] == item["path"]


def test_a_symlinked_config_is_edited_through_the_link(run: Run, empty_home: Path,
                                                        tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "settings.json"
    real.write_text('{\n  "theme": "GitHub"\n}\n')
    (empty_home / ".gemini").mkdir()
    link = empty_home / ".gemini" / "settings.json"
    link.symlink_to(real)
    run_json(run, empty_home, "setup", "--client", "gemini-cli")
    assert link.is_symlink()
    assert json.loads(real.read_text())["mcpServers"]["jamgate"]["command"] == JAMGATE
    assert json.loads((link.parent / "settings.json.jamgate-backup").read_text()) == {
        "theme": "GitHub"}


def test_claude_config_dir_and_codex_home_are_honoured(run: Run, empty_home: Path,
                                                        tmp_path: Path) -> None:
    claude, codex = tmp_path / "claude-cfg", tmp_path / "codex-home"
    claude.mkdir()
    codex.mkdir()
    (claude / ".claude.json").write_text('{"numStartups": 1}')
    report = run_json(run, empty_home, "setup", "--client", "claude-code", "--client", "codex",
                      CLAUDE_CONFIG_DIR=str(claude), CODEX_HOME=str(codex))
    assert outcomes(report) == {"claude-code": "configured", "codex": "configured"}
    assert (claude / ".claude.json").read_text().startswith('{"numStartups": 1, "mcpServers"')
    assert (codex / "config.toml").is_file()
    assert list(empty_home.iterdir()) == []


def test_a_file_that_cannot_be_read_is_an_error_for_that_client_only(run: Run,
                                                                     home: Path) -> None:
    settings = home / PATHS["gemini-cli"]
    settings.unlink()
    settings.mkdir()  # a folder where the file should be
    done = run(home, "setup", "--json")
    report = json.loads(done.stdout)
    assert done.returncode == 1
    assert outcomes(report)["gemini-cli"] == "error"
    assert outcomes(report)["codex"] == "configured"


def test_the_cursor_link_installs_what_setup_writes(run: Run, empty_home: Path) -> None:
    from jamgate_commands.clients.deeplink import parse_cursor_link

    (empty_home / ".cursor").mkdir()
    before = snapshot(empty_home)
    done = run(empty_home, "setup", "--cursor-link")
    assert done.returncode == 0, done.stderr
    assert snapshot(empty_home) == before  # a link changes nothing
    name, linked = parse_cursor_link(done.stdout.strip())
    run_json(run, empty_home, "setup", "--client", "cursor")
    assert (name, linked) == ("jamgate", entry(empty_home, "cursor"))
    remote = run(empty_home, "setup", "--cursor-link", "--remote", "https://m.example.com/mcp",
                 JAMGATE_TOKEN="never-in-a-link-0123456789")
    assert "never-in-a-link" not in remote.stdout
    assert parse_cursor_link(remote.stdout.splitlines()[0])[1] == {
        "url": "https://m.example.com/mcp"}
