"""Making the opening replies shipped with the package (`shipped.py`, D-225).

The real server (`build_server`, the SDK's `Server.run`) is driven in process through memory
streams, with the lines parsed and the replies written exactly as the stdio wire does
(`stdio_wire.parse`, `stdio_wire.text`): one session per opening — the `initialize` handshake
at every version the SDK negotiates, then `notifications/initialized` and the listings; the
2026 era's `server/discover` and the listings, and its listings alone — each reply keyed by
the opening's normal form. `scripts/make_opening_replies.py` writes the file; a test makes it
again and compares.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import anyio
from mcp.shared.message import SessionMessage
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from jamgate_server import stdio_wire
from jamgate_server.mcp import build_server, runs_inline
from jamgate_server.reply_cache import Body, OpeningDigest
from jamgate_server.shipped import FORMAT, digest, installed_versions

if TYPE_CHECKING:
    from jamgate_core.app import App
    from jamgate_core.loader import PluginInfo

CLIENT = {"name": "jamgate-opening", "version": "0"}
LISTINGS = ("tools/list", "resources/list", "resources/templates/list", "prompts/list", "ping")
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
SESSION_SECONDS = 60

Message = dict[str, Any]


def request(request_id: int, method: str, params: dict[str, Any] | None = None) -> Message:
    message: Message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def envelope(version: str, client: dict[str, Any] | None = None,
             capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
    """The 2026 era's per-request `_meta`."""
    return {"io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientInfo": client or CLIENT,
            "io.modelcontextprotocol/clientCapabilities": capabilities or {}}


def legacy_opening(version: str, client: dict[str, Any] | None = None,
                   capabilities: dict[str, Any] | None = None) -> list[Message]:
    init = request(1, "initialize", {"protocolVersion": version,
                                     "capabilities": capabilities or {},
                                     "clientInfo": client or CLIENT})
    return [init, INITIALIZED, *(request(2 + i, m) for i, m in enumerate(LISTINGS))]


def modern_opening(version: str, client: dict[str, Any] | None = None,
                   capabilities: dict[str, Any] | None = None,
                   discover: bool = True) -> list[Message]:
    meta = {"_meta": envelope(version, client, capabilities)}
    methods = (("server/discover",) if discover else ()) + LISTINGS
    return [request(1 + i, m, meta) for i, m in enumerate(methods)]


def openings() -> list[list[Message]]:
    """The sessions whose replies are shipped."""
    return [*(legacy_opening(v) for v in HANDSHAKE_PROTOCOL_VERSIONS),
            *(modern_opening(v) for v in MODERN_PROTOCOL_VERSIONS),
            *(modern_opening(v, discover=False) for v in MODERN_PROTOCOL_VERSIONS)]


async def session_replies(app: App, messages: list[Message]) -> list[Body | None]:
    """The SDK's reply to each message of one session (None for a notification)."""
    server = build_server(app, inline=runs_inline(app))
    options = server.create_initialization_options()
    to_server, server_reads = anyio.create_memory_object_stream[SessionMessage | Exception](16)
    server_writes, from_server = anyio.create_memory_object_stream[SessionMessage](16)
    bodies: list[Body | None] = []
    with anyio.fail_after(SESSION_SECONDS):
        async with anyio.create_task_group() as group:
            group.start_soon(server.run, server_reads, server_writes, options)
            for message in messages:
                await to_server.send(stdio_wire.parse(json.dumps(message) + "\n"))
                if "id" not in message:
                    bodies.append(None)
                    continue
                reply = json.loads(stdio_wire.text(await from_server.receive()))
                assert reply.get("id") == message["id"], reply
                bodies.append({k: reply[k] for k in ("result", "error") if k in reply})
            await to_server.aclose()
    return bodies


def replies_of(app: App, sessions: list[list[Message]]) -> list[list[Body | None]]:
    async def run() -> list[list[Body | None]]:
        return [await session_replies(app, messages) for messages in sessions]

    return anyio.run(run)


def build_document(app: App, plugins: list[PluginInfo]) -> dict[str, Any]:
    """The shipped file's content: the replies to `openings()` by their normal-form keys."""


    bodies: list[Body] = []
    positions: dict[str, int] = {}
    replies: dict[str, int] = {}
    sessions = openings()
    for messages, answers in zip(sessions, replies_of(app, sessions), strict=True):
        keys = OpeningDigest()
        for message, body in zip(messages, answers, strict=True):
            key = keys.add(message)
            if body is None or key is None:
                continue
            text = json.dumps(body, sort_keys=True)
            if text not in positions:
                positions[text] = len(bodies)
                bodies.append(body)
            replies[key] = positions[text]
    return {"format": FORMAT, "digest": digest(plugins), "made_with": installed_versions(),
            "replies": dict(sorted(replies.items())), "bodies": bodies}


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"
