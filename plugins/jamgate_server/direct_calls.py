"""Plain tool calls answered on the stdio wire, without the SDK's dispatch (issue 21, D-275).

Around a lexical save the SDK spends about as much CPU as the gate's costliest stage: the line
validated as a JSON-RPC message, then against the protocol version's surface, then as the
method's params; a task and two memory-stream hand-offs; the result validated and sieved for
the version; the response model built and dumped. With an app that runs tool calls on the event
loop (`mcp.runs_inline`), a *plain* `tools/call` is answered here instead: after the handshake
the SDK answered, with nothing in its params but `name` and `arguments` (no `_meta`, no task, no
progress token), for a tool of the table, while no request the SDK holds is unanswered (so
answers keep their order). The call runs the same code (`mcp.run_tool`), its result is shaped by
the SDK's own per-version sieve (`mcp_types.methods.serialize_server_result`) and written as the
SDK writes it; `tests/server/test_direct_calls.py` compares the bytes. Every other line, and any
line this cannot read strictly, goes to the SDK as before.
"""

from __future__ import annotations

import logging
from typing import Any

import mcp_types as types
from mcp.shared.message import SessionMessage
from mcp_types.jsonrpc import INTERNAL_ERROR
from mcp_types.methods import serialize_server_result
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError
from pydantic_core import from_json, to_json

from jamgate_core.app import App
from jamgate_server.mcp import Provenance, ToolSpec, provenance_from, run_tool

_log = logging.getLogger(__name__)

_REQUEST_KEYS = frozenset({"jsonrpc", "id", "method", "params"})
_PLAIN_PARAMS = frozenset({"name", "arguments"})


class DirectCalls:
    """Watches the session's messages both ways and answers the plain tool calls."""

    def __init__(self, app: App, tools: dict[str, ToolSpec], origin: str = "mcp") -> None:
        self._app = app
        self._tools = tools
        self._origin = origin
        self._version: str | None = None  # the handshake's protocol version, once answered
        self._who = Provenance(origin=origin)
        self._opening: Any = None  # the id of the `initialize` request the SDK holds
        self._pending: set[Any] = set()  # ids of requests the SDK holds unanswered

    def answer(self, line: str) -> str | None:
        """The answer line to `line` when it is a plain tool call, else None (the SDK's)."""
        if self._version is None or self._pending or '"tools/call"' not in line:
            return None
        try:
            # The SDK's JSON parser, strict as the SDK reads a line: an invalid byte (kept as a
            # surrogate escape), a lone surrogate or a NaN is the SDK's to answer.
            document = from_json(line.encode("utf-8"), allow_inf_nan=False)
        except ValueError:
            return None
        call = self._plain_call(document)
        if call is None:
            return None
        spec, arguments = call
        result = run_tool(spec, self._app, arguments, self._who)
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": document["id"]}
        try:
            reply["result"] = serialize_server_result(
                "tools/call", self._version,
                result.model_dump(by_alias=True, mode="json", exclude_none=True))
        except Exception as exc:  # the call ran: answer it, never hand it to the SDK again
            _log.error(f"the answer to {spec.name} could not be written: {exc!r}")
            reply["error"] = {"code": INTERNAL_ERROR, "message": "Internal error"}
        return to_json(reply).decode("utf-8") + "\n"

    def _plain_call(self, document: Any) -> tuple[ToolSpec, dict[str, Any]] | None:
        if (not isinstance(document, dict) or document.keys() != _REQUEST_KEYS
                or document["jsonrpc"] != "2.0" or document["method"] != "tools/call"):
            return None
        request_id, params = document["id"], document["params"]
        if isinstance(request_id, bool) or not isinstance(request_id, int | str):
            return None
        if not isinstance(params, dict) or not params.keys() <= _PLAIN_PARAMS:
            return None
        name, arguments = params.get("name"), params.get("arguments")
        spec = self._tools.get(name) if isinstance(name, str) else None
        if spec is None or not (arguments is None or isinstance(arguments, dict)):
            return None  # an unknown tool or malformed arguments: the SDK's own error
        return spec, arguments or {}

    def seen(self, message: SessionMessage) -> None:
        """A message on its way to the SDK."""
        inner = message.message
        if not isinstance(inner, types.JSONRPCRequest):
            return
        self._pending.add(inner.id)
        if inner.method == "initialize":
            self._version = None  # answered by the SDK again until it answers this one
            self._opening = inner.id
            try:
                opening = types.InitializeRequestParams.model_validate(
                    inner.params or {}, by_name=False)
            except ValidationError:
                self._opening = None
                return
            self._who = provenance_from(opening.client_info, self._origin)

    def sent(self, message: SessionMessage) -> None:
        """A message the SDK wrote."""
        inner = message.message
        if not isinstance(inner, types.JSONRPCResponse | types.JSONRPCError):
            return
        self._pending.discard(inner.id)
        if inner.id == self._opening and self._opening is not None:
            self._opening = None
            version = (inner.result.get("protocolVersion")
                       if isinstance(inner, types.JSONRPCResponse) else None)
            if isinstance(version, str) and version not in MODERN_PROTOCOL_VERSIONS:
                self._version = version
