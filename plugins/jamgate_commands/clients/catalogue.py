"""Every MCP client `jamgate setup` knows: where its config lives and what an entry looks like.

One row per client, as data. Paths are templates over a few roots (`~`, `<xdg>`, `<appdata>`,
`<code>` — VS Code's `User` folder — `<claude>` and `<codex>`), resolved from an environment
mapping so tests can point everything at a fake home. Entry shapes are templates whose string
values `$command`, `$args`, `$argv`, `$url` and `$headers` are filled in by `build_entry`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Format = Literal["json", "toml"]
Transport = Literal["stdio", "remote"]
REMOTE_KEYS = ("url", "httpUrl", "serverUrl")
SERVER_NAME = "jamgate"


@dataclass(frozen=True)
class Client:
    """One client: its config file per platform and its entry shapes."""

    id: str
    label: str
    paths: Mapping[str, str]  # platform ("linux", "darwin", "win32") → file template
    detect: Mapping[str, tuple[str, ...]]  # platform → folders/files proving it is installed
    container: str  # the key holding the servers (a TOML table for Codex)
    stdio: Mapping[str, Any]
    remote: Mapping[str, Any] | None  # None: no documented HTTP transport in its config
    remote_note: str = ""  # why `remote` is None
    format: Format = "json"
    shared: bool = False  # the file holds the client's other settings too
    siblings: tuple[str, ...] = ()  # other file names the client reads in the same folder
    docs: str = ""

    def managed_keys(self) -> frozenset[str]:
        """Keys of our entry that setup owns; any other key in it belongs to the user."""
        keys = set(self.stdio)
        if self.remote is not None:
            keys |= set(self.remote)
        return frozenset(keys)


def _every(template: str) -> dict[str, str]:
    return {"linux": template, "darwin": template, "win32": template}


def _each(template: str) -> dict[str, tuple[str, ...]]:
    return {"linux": (template,), "darwin": (template,), "win32": (template,)}


_CODE_USER = {"linux": "<xdg>/Code/User", "darwin": "~/Library/Application Support/Code/User",
              "win32": "<appdata>/Code/User"}
_CLINE = "globalStorage/saoudrizwan.claude-dev"
_ROO = "globalStorage/rooveterinaryinc.roo-cline"
_PLAIN_STDIO = {"command": "$command", "args": "$args"}

CLIENTS: tuple[Client, ...] = (
    Client(
        id="claude-code", label="Claude Code",
        paths=_every("<claude>/.claude.json"),
        detect={p: ("<claude>/.claude.json", "~/.claude") for p in ("linux", "darwin", "win32")},
        container="mcpServers",
        stdio={"type": "stdio", "command": "$command", "args": "$args"},
        remote={"type": "http", "url": "$url", "headers": "$headers"},
        shared=True, docs="https://docs.anthropic.com/en/docs/claude-code/mcp",
    ),
    Client(
        id="claude-desktop", label="Claude Desktop",
        paths={"linux": "<xdg>/Claude/claude_desktop_config.json",
               "darwin": "~/Library/Application Support/Claude/claude_desktop_config.json",
               "win32": "<appdata>/Claude/claude_desktop_config.json"},
        detect={"linux": ("<xdg>/Claude",), "darwin": ("~/Library/Application Support/Claude",),
                "win32": ("<appdata>/Claude",)},
        container="mcpServers", stdio=_PLAIN_STDIO, remote=None,
        remote_note="its config file starts local (stdio) servers only — wire it without "
                    "--remote, or add the URL as a connector in the app",
        shared=True, docs="https://modelcontextprotocol.io/quickstart/user",
    ),
    Client(
        id="cursor", label="Cursor", paths=_every("~/.cursor/mcp.json"),
        detect=_each("~/.cursor"), container="mcpServers", stdio=_PLAIN_STDIO,
        remote={"url": "$url", "headers": "$headers"},
        docs="https://docs.cursor.com/context/model-context-protocol",
    ),
    Client(
        id="windsurf", label="Windsurf", paths=_every("~/.codeium/windsurf/mcp_config.json"),
        detect=_each("~/.codeium/windsurf"), container="mcpServers", stdio=_PLAIN_STDIO,
        remote={"serverUrl": "$url", "headers": "$headers"},
        docs="https://docs.windsurf.com/windsurf/cascade/mcp",
    ),
    Client(
        id="gemini-cli", label="Gemini CLI", paths=_every("~/.gemini/settings.json"),
        detect=_each("~/.gemini"), container="mcpServers", stdio=_PLAIN_STDIO,
        remote={"httpUrl": "$url", "headers": "$headers"},  # plain `url` would mean SSE
        shared=True, docs="https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md",
    ),
    Client(
        id="vscode", label="VS Code",
        paths={p: f"{root}/mcp.json" for p, root in _CODE_USER.items()},
        detect={p: (root,) for p, root in _CODE_USER.items()},
        container="servers", stdio={"type": "stdio", "command": "$command", "args": "$args"},
        remote={"type": "http", "url": "$url", "headers": "$headers"},
        docs="https://code.visualstudio.com/docs/copilot/customization/mcp-servers",
    ),
    Client(
        id="cline", label="Cline",
        paths={p: f"{root}/{_CLINE}/settings/cline_mcp_settings.json"
               for p, root in _CODE_USER.items()},
        detect={p: (f"{root}/{_CLINE}",) for p, root in _CODE_USER.items()},
        container="mcpServers", stdio=_PLAIN_STDIO,
        remote={"type": "streamableHttp", "url": "$url", "headers": "$headers"},
        docs="https://docs.cline.bot/mcp/configuring-mcp-servers",
    ),
    Client(
        id="cline-cli", label="Cline CLI",
        paths=_every("~/.cline/data/settings/cline_mcp_settings.json"),
        detect=_each("~/.cline"), container="mcpServers", stdio=_PLAIN_STDIO,
        remote={"type": "streamableHttp", "url": "$url", "headers": "$headers"},
        docs="https://docs.cline.bot/cline-cli/overview",
    ),
    Client(
        id="roo", label="Roo Code",
        paths={p: f"{root}/{_ROO}/settings/mcp_settings.json" for p, root in _CODE_USER.items()},
        detect={p: (f"{root}/{_ROO}",) for p, root in _CODE_USER.items()},
        container="mcpServers", stdio=_PLAIN_STDIO,
        remote={"type": "streamable-http", "url": "$url", "headers": "$headers"},
        docs="https://docs.roocode.com/features/mcp/using-mcp-in-roo",
    ),
    Client(
        id="opencode", label="OpenCode", paths=_every("<xdg>/opencode/opencode.json"),
        detect=_each("<xdg>/opencode"), container="mcp",
        stdio={"type": "local", "command": "$argv", "enabled": True},
        remote={"type": "remote", "url": "$url", "enabled": True, "headers": "$headers"},
        shared=True, siblings=("opencode.jsonc",), docs="https://opencode.ai/docs/mcp-servers/",
    ),
    Client(
        id="zed", label="Zed",
        paths={"linux": "<xdg>/zed/settings.json", "darwin": "<xdg>/zed/settings.json",
               "win32": "<appdata>/Zed/settings.json"},
        detect={"linux": ("<xdg>/zed",), "darwin": ("<xdg>/zed",), "win32": ("<appdata>/Zed",)},
        container="context_servers", stdio=_PLAIN_STDIO,
        remote={"url": "$url", "headers": "$headers"},
        shared=True, docs="https://zed.dev/docs/ai/mcp",
    ),
    Client(
        id="codex", label="Codex CLI", paths=_every("<codex>/config.toml"),
        detect=_each("<codex>"), container="mcp_servers", format="toml",
        stdio=_PLAIN_STDIO, remote={"url": "$url", "http_headers": "$headers"},
        shared=True, docs="https://developers.openai.com/codex/mcp",
    ),
)
CLIENT_IDS: tuple[str, ...] = tuple(c.id for c in CLIENTS)


def client(client_id: str) -> Client:
    """The catalogue row of one client id."""
    for row in CLIENTS:
        if row.id == client_id:
            return row
    raise KeyError(f"unknown client {client_id!r}; known: {', '.join(CLIENT_IDS)}")


# ---- paths --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roots:
    """The folders path templates are written against, for one platform and environment."""

    platform: str
    values: dict[str, Path] = field(default_factory=dict)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None,
                 platform: str | None = None) -> Roots:
        """Roots from `env` (default `os.environ`): HOME/USERPROFILE, XDG_CONFIG_HOME,
        APPDATA, CLAUDE_CONFIG_DIR and CODEX_HOME."""
        env = os.environ if env is None else env
        platform = platform or ("win32" if sys.platform.startswith("win") else
                                "darwin" if sys.platform == "darwin" else "linux")
        home_text = env.get("HOME") or env.get("USERPROFILE")
        home = Path(home_text) if home_text else Path.home()
        xdg = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else home / ".config"
        appdata = Path(env["APPDATA"]) if env.get("APPDATA") else home / "AppData" / "Roaming"
        claude = Path(env["CLAUDE_CONFIG_DIR"]) if env.get("CLAUDE_CONFIG_DIR") else home
        codex = Path(env["CODEX_HOME"]) if env.get("CODEX_HOME") else home / ".codex"
        values = {"~": home, "<xdg>": xdg, "<appdata>": appdata, "<claude>": claude,
                  "<codex>": codex}
        return cls(platform=platform, values=values)

    def resolve(self, template: str) -> Path:
        root, _, rest = template.partition("/")
        base = self.values.get(root)
        if base is None:
            raise ValueError(f"path template {template!r} starts with an unknown root")
        return base.joinpath(*[part for part in rest.split("/") if part])


def config_path(row: Client, roots: Roots) -> Path | None:
    """Where `row` keeps its config on this platform, or None when it has none here. When
    that file does not exist but a sibling does (OpenCode's first run writes
    `opencode.jsonc`), the sibling."""
    template = row.paths.get(roots.platform)
    if not template:
        return None
    path = roots.resolve(template)
    if path.exists():
        return path
    return next((path.with_name(n) for n in row.siblings if path.with_name(n).exists()), path)


def detected(row: Client, roots: Roots) -> Path | None:
    """The first detect path that exists (the client is installed), else None."""
    for template in row.detect.get(roots.platform, ()):
        path = roots.resolve(template)
        if path.exists():
            return path
    return None


# ---- entries ------------------------------------------------------------------------------


def build_entry(row: Client, transport: Transport, argv: list[str], url: str | None = None,
                token: str | None = None) -> dict[str, Any]:
    """Our entry for `row`, from its shape template. `headers` is left out without a token."""
    template = row.stdio if transport == "stdio" else row.remote
    if template is None:
        raise ValueError(f"{row.label} has no remote entry shape")
    values: dict[str, Any] = {
        "$command": argv[0] if argv else None, "$args": list(argv[1:]), "$argv": list(argv),
        "$url": url,
        "$headers": {"Authorization": f"Bearer {token}"} if token else None,
    }
    entry: dict[str, Any] = {}
    for key, value in template.items():
        filled = values.get(value, value) if isinstance(value, str) else value
        if filled is not None:
            entry[key] = filled
    return entry


def entry_transport(entry: Any) -> Transport | None:
    """`remote` when an entry carries a URL, `stdio` when it carries a command, else None."""
    if not isinstance(entry, Mapping):
        return None
    if any(key in entry for key in REMOTE_KEYS):
        return "remote"
    if "command" in entry:
        return "stdio"
    return None


def entry_target(entry: Any) -> str:
    """What an entry runs or reaches, as one line for people."""
    if not isinstance(entry, Mapping):
        return "?"
    for key in REMOTE_KEYS:
        if key in entry:
            return str(entry[key])
    command = entry.get("command")
    parts = list(command) if isinstance(command, list) else [command] if command else []
    args = entry.get("args")
    if isinstance(args, list):
        parts += args
    return " ".join(str(p) for p in parts) or "?"


def entry_argv(entry: Any) -> list[str] | None:
    """The command line of a stdio entry, or None."""
    if entry_transport(entry) != "stdio":
        return None
    command = entry["command"]
    parts = [str(p) for p in command] if isinstance(command, list) else [str(command)]
    args = entry.get("args")
    if isinstance(args, list):
        parts += [str(a) for a in args]
    return parts
