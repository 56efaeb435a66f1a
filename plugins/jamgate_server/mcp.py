"""The MCP server: five tools over one app, on the SDK's low-level server.

The low-level server is used so that our own validation runs on every call (the SDK does not
check arguments against the published schema): a missing text or an object as text gets our
precise error naming the keys that arrived, not the SDK's. Store work runs in worker threads,
never on the event loop, with a per-store concurrency limit.
"""

from __future__ import annotations

import gc
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS
from pydantic import BaseModel

from jamgate_core import __version__, arguments, render
from jamgate_core.app import LIST_CAP, RECALL_CAP, App
from jamgate_core.contracts import LOCAL
from jamgate_core.errors import JamgateError, NotFound
from jamgate_core.models import ClientInfo, ForgetResult, ListResult, RecallResult, Verdict
from jamgate_server import profile

if TYPE_CHECKING:
    from jamgate_server.early import FrontEnd

_log = logging.getLogger(__name__)

CLIENT_INFO_META = "io.modelcontextprotocol/clientInfo"
STORE_CONCURRENCY = 4

INSTRUCTIONS = """\
Jamgate is the user's long-term memory, shared by every agent they use.
- At the start of a task, call recall_memory with the topic to see what is already known.
- Save only durable facts about the user (identity, preferences, projects, lasting state):
  one fact per save_memory call, as a clear standalone statement.
- When a fact changes, save the new one with the same `subject` as the old (reuse the exact
  string recall shows); the gate retires the outdated one.
- Never send secrets (passwords, API keys, tokens): say where they live instead.
- Every save returns a verdict with a reason: treat it as the answer (a duplicate or a
  rejection is not an error to retry)."""

_TYPE = {"type": "string", "enum": ["identity", "project", "preference", "state"],
         "description": "Memory layer; sets its lifespan (project 90 days, state 2 days)."}
_SCOPE = {"type": "string",
          "description": "Optional namespace such as 'work/greek'; omit for the default."}

SAVE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "text": {"type": "string",
                 "description": "The memory as one clear standalone statement "
                                "('content' and 'memory' are accepted aliases)."},
        "type": _TYPE,
        "subject": {"type": "string",
                    "description": "What the memory is about, e.g. 'location' or "
                                   "'current-project'. A newer memory on the same subject "
                                   "retires the older one: reuse the exact earlier string."},
        "source": {"type": "string",
                   "enum": ["agent-inferred", "user-confirmed", "user-explicit"],
                   "description": "Who said it. Defaults to agent-inferred."},
        "scope": _SCOPE,
    },
    "required": ["text"],
}
RECALL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string",
                  "description": "What to look for; empty = most recent. Naming a day or a "
                                 "month ('on 9 May 2023') puts memories saved then first."},
        "limit": {"type": "integer", "minimum": 1, "description": "At most this many (cap 100)."},
        "scope": _SCOPE,
        "type": _TYPE,
    },
}
FORGET_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {"type": "string",
               "description": "The id printed by recall_memory (an unambiguous prefix of 8+ "
                              "characters also works)."},
        "scope": _SCOPE,
    },
    "required": ["id"],
}
LIST_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "scope": _SCOPE,
        "status": {"type": "string", "enum": ["active", "superseded", "expired", "all"]},
        "type": _TYPE,
        "limit": {"type": "integer", "minimum": 1, "description": "Page size (cap 1000)."},
        "cursor": {"type": "string", "description": "next_cursor from the previous page."},
    },
}


@dataclass(frozen=True)
class Provenance:
    """Who is calling, as the transport observed it (never from tool arguments)."""

    client: ClientInfo | None = None
    origin: str = "mcp"


Handler = Callable[[App, dict[str, Any], Provenance], tuple[BaseModel, str]]


def _save(app: App, args: dict[str, Any], who: Provenance) -> tuple[BaseModel, str]:
    verdict: Verdict = app.save(arguments.save_request(args, client=who.client), origin=who.origin)
    return verdict, render.verdict_text(verdict)


def _check(app: App, args: dict[str, Any], who: Provenance) -> tuple[BaseModel, str]:
    request = arguments.save_request(args, client=who.client, tool="check_memory")
    verdict: Verdict = app.check(request, origin=who.origin)
    return verdict, "(dry run: nothing was written) " + render.verdict_text(verdict)


def _recall(app: App, args: dict[str, Any], who: Provenance) -> tuple[BaseModel, str]:
    parsed = arguments.recall_args(args, RECALL_CAP)
    result = app.recall(parsed.query, limit=parsed.limit, scope=parsed.scope, type=parsed.type)
    return result, render.recall_text(result)


def _forget(app: App, args: dict[str, Any], who: Provenance) -> tuple[BaseModel, str]:
    scope = arguments.list_args({"scope": args.get("scope")}, 1).scope
    result = app.forget(arguments.forget_id(args), scope=scope, origin=who.origin)
    return result, render.forget_text(result)


def _list(app: App, args: dict[str, Any], who: Provenance) -> tuple[BaseModel, str]:
    parsed = arguments.list_args(args, LIST_CAP)
    result = app.list(scope=parsed.scope, status=parsed.status, type=parsed.type,
                      limit=parsed.limit, cursor=parsed.cursor)
    return result, render.list_text(result)


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    input_schema: dict[str, Any]
    output: type[BaseModel]
    handler: Handler
    annotations: types.ToolAnnotations | None = None


def _hints(title: str, *, read_only: bool = False, destructive: bool = False,
           idempotent: bool = False) -> types.ToolAnnotations:
    """MCP tool annotations; every tool works on this memory only (a closed world)."""
    return types.ToolAnnotations(title=title, read_only_hint=read_only,
                                 destructive_hint=destructive, idempotent_hint=idempotent,
                                 open_world_hint=False)


TOOLS = (
    ToolSpec("save_memory",
             "Save one durable memory about the user through the quality gate. Only for what "
             "is worth remembering across sessions (identity, preferences, projects, lasting "
             "state). Returns a verdict (saved, superseded, duplicate, conflict, "
             "possible_duplicate, rejected) with a reason to act on.",
             SAVE_SCHEMA, Verdict, _save,
             # Additive: a superseded record stays (marked); the same save twice is a duplicate.
             _hints("Save a memory", idempotent=True)),
    ToolSpec("check_memory",
             "Dry run of save_memory: the verdict a save would get. Writes nothing.",
             SAVE_SCHEMA, Verdict, _check, _hints("Check a memory", read_only=True,
                                                   idempotent=True)),
    ToolSpec("recall_memory",
             "Recall stored memories about the user relevant to a query (empty query: the "
             "most recent). Call it at the start of a task.",
             RECALL_SCHEMA, RecallResult, _recall,
             _hints("Recall memories", read_only=True, idempotent=True)),
    ToolSpec("forget_memory",
             "Delete one memory by the id recall_memory printed (or an unambiguous prefix of "
             "8+ characters), in the scope it was recalled from.",
             FORGET_SCHEMA, ForgetResult, _forget,
             _hints("Forget a memory", destructive=True, idempotent=True)),
    ToolSpec("list_memories",
             "List memories in a scope, newest first, page by page; status active (default), "
             "superseded, expired or all.",
             LIST_SCHEMA, ListResult, _list,
             _hints("List memories", read_only=True, idempotent=True)),
)


def provenance_of(ctx: ServerRequestContext[Any, Any], origin: str) -> Provenance:
    """The client's declared identity, from the handshake or the per-request metadata."""
    info: Any = None
    params = ctx.session.client_params if ctx.session is not None else None
    if params is not None:
        info = params.client_info
    elif ctx.meta is not None:
        raw = ctx.meta.get(CLIENT_INFO_META) if isinstance(ctx.meta, dict) else getattr(
            ctx.meta, "model_extra", {}).get(CLIENT_INFO_META)
        info = types.Implementation.model_validate(raw) if isinstance(raw, dict) else None
    return provenance_from(info, origin)


def provenance_from(info: types.Implementation | None, origin: str) -> Provenance:
    """The provenance of a client that declared `info` (its name and version)."""
    if info is None or not getattr(info, "name", None):
        return Provenance(origin=origin)
    return Provenance(client=ClientInfo(name=info.name, version=info.version or None),
                      origin=origin)


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)


def runs_inline(app: App) -> bool:
    """Whether a stdio server answers tool calls on its event loop instead of a worker
    thread: only where a call is pure in-process Python under the GIL (a local store, no
    embedder), so a thread would add its hand-off and never overlap any work (D-159)."""
    return LOCAL in app.store.capabilities and app.embedder is None


def tool_table(app: App) -> dict[str, ToolSpec]:
    """The five tools, plus any a plugin registers, by name."""
    tools: dict[str, ToolSpec] = {spec.name: spec for spec in TOOLS}

    def register(name: str, description: str, input_schema: dict[str, Any],
                 handler: Callable[[dict[str, Any], Provenance], dict[str, Any]]) -> None:
        class Extra(BaseModel):
            model_config = {"extra": "allow"}

        def wrapped(app: App, args: dict[str, Any], who: Provenance) -> tuple[BaseModel, str]:
            result = handler(args, who)
            return Extra(**result), json.dumps(result, ensure_ascii=False, default=str)

        tools[name] = ToolSpec(name, description, input_schema, Extra, wrapped)

    app.hooks.register_tools(register, app)
    return tools


def run_tool(spec: ToolSpec, app: App, args: dict[str, Any],
             who: Provenance) -> types.CallToolResult:
    """One tool call, in the calling thread, as its MCP result: a failure is an error
    result the agent can read, never an exception (the server must survive anything)."""
    try:
        model, text = spec.handler(app, args, who)
    except JamgateError as exc:
        return _error(f"{spec.name} failed: {exc}")
    except Exception as exc:
        _log.error(f"{spec.name} crashed: {exc!r}")
        return _error(f"{spec.name} failed with an internal error ({type(exc).__name__}). "
                      "Nothing was changed. Please report this.")
    return types.CallToolResult(content=[types.TextContent(text=text)],
                                structured_content=model.model_dump(mode="json"))


def build_server(app: App, *, origin: str = "mcp",
                 limiter: anyio.CapacityLimiter | None = None,
                 inline: bool = False, tools: dict[str, ToolSpec] | None = None) -> Server[Any]:
    """An MCP server exposing the five tools (plus any a plugin registers) over `app`.
    `limiter` bounds concurrent store work; pass the one the REST API uses to share it.
    `inline` runs tool calls on the event loop (stdio, `runs_inline`), else in a thread.
    `tools` is the tool table when the caller built it (`tool_table`)."""
    tools = tool_table(app) if tools is None else tools
    limiter = limiter or anyio.CapacityLimiter(STORE_CONCURRENCY)

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[
            types.Tool(name=spec.name, description=spec.description,
                       input_schema=spec.input_schema, annotations=spec.annotations,
                       title=spec.annotations.title if spec.annotations else None,
                       output_schema=spec.output.model_json_schema()
                       if spec.output.model_fields else None)
            for spec in tools.values()
        ])

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        spec = tools.get(params.name)
        if spec is None:
            return _error(f"Unknown tool: {params.name}. Tools: {', '.join(tools)}.")
        raw = params.arguments if isinstance(params.arguments, dict) else {}
        who = provenance_of(ctx, origin)
        if inline:
            return run_tool(spec, app, raw, who)
        result: types.CallToolResult = await anyio.to_thread.run_sync(
            partial(run_tool, spec, app, raw, who), limiter=limiter)
        return result

    async def list_resources(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[types.Resource(
            name=profile.PROFILE_NAME, title=profile.PROFILE_TITLE, uri=profile.PROFILE_URI,
            description=profile.PROFILE_DESCRIPTION, mime_type=profile.PROFILE_MIME)])

    async def list_resource_templates(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[types.ResourceTemplate(
            name=profile.PROFILE_SCOPED_NAME, title=profile.PROFILE_SCOPED_TITLE,
            uri_template=profile.PROFILE_TEMPLATE, description=profile.PROFILE_SCOPED_DESCRIPTION,
            mime_type=profile.PROFILE_MIME)])

    async def read_resource(
        ctx: ServerRequestContext[Any, Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        try:
            text = await anyio.to_thread.run_sync(
                partial(profile.read_profile, app, uri), limiter=limiter)
        except NotFound as exc:
            raise MCPError(code=INVALID_PARAMS, message=str(exc)) from exc
        except JamgateError as exc:
            raise MCPError(code=INTERNAL_ERROR, message=f"{uri}: {exc}") from exc
        return types.ReadResourceResult(contents=[types.TextResourceContents(
            uri=uri, mime_type=profile.PROFILE_MIME, text=text)])

    server: Server[Any] = Server(
        "jamgate", version=__version__, instructions=INSTRUCTIONS,
        on_list_tools=list_tools, on_call_tool=call_tool,
        on_list_resources=list_resources, on_read_resource=read_resource,
        on_list_resource_templates=list_resource_templates,
    )
    # The SDK wraps every request in an OpenTelemetry span by default; Jamgate sends no
    # telemetry, so the span is pure cost on every call (issue 21).
    server.middleware = []
    return server


async def serve_stdio(app: App, front: FrontEnd) -> None:
    """Serve MCP over stdin/stdout until the client hangs up, taking over from the front end
    (`early.py`); a line that cannot be read gets a JSON-RPC error (`stdio.py`), never
    silence."""
    from jamgate_server.direct_calls import DirectCalls
    from jamgate_server.stdio import stdio_transport

    inline = runs_inline(app)
    tools = tool_table(app)
    server = build_server(app, inline=inline, tools=tools)
    options = server.create_initialization_options()
    if not front.hand_over():
        front.close()
        return  # the client left, owed nothing
    direct = DirectCalls(app, tools) if inline else None
    # What the server holds from here on (the SDK, pydantic's schemas, the app) lives as long
    # as the session: the collector stops walking it on every collection (D-276).
    gc.freeze()
    async with stdio_transport(front, direct) as (read_stream, write_stream):
        await server.run(read_stream, write_stream, options)
