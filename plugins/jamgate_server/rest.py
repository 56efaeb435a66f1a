"""The REST API: `/v1/memory` save, recall and forget, `/healthz`, and its OpenAPI document.

Bodies are the models of the MCP tools' structured output (`Verdict`, `RecallResult`,
`ForgetResult`); errors are `{error, message}` with a stable code. A save answers 201 when
something was stored and 200 for every other verdict (a rejection is an answer, not an
error); a malformed request is 400, an unknown id 404, an ambiguous prefix 409. Store work
runs in worker threads with a concurrency limit, never on the event loop.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import unicodedata
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

import anyio
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)
from pydantic.json_schema import models_json_schema
from pydantic_core import from_json
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from jamgate_core import __version__, arguments
from jamgate_core.app import RECALL_CAP, App
from jamgate_core.errors import Ambiguous, InvalidArgument, JamgateError, NotFound
from jamgate_core.models import (
    MEMORY_TYPES,
    ClientInfo,
    ForgetResult,
    MemoryType,
    RecallResult,
    Source,
    Verdict,
)

_log = logging.getLogger(__name__)

ORIGIN = "rest"
CLIENT_HEADER = "X-Jamgate-Client"
STORE_CONCURRENCY = 4
ROUTES_HINT = "Routes are POST /v1/memory, GET /v1/memory, DELETE /v1/memory/{id}."
_NON_BLANK = r"\S"
_DIGITS = re.compile(r"^[0-9]+$")

T = TypeVar("T")


# ---- wire models -----------------------------------------------------------------------------

NonBlank = Annotated[str, StringConstraints(pattern=_NON_BLANK)]


class SaveBody(BaseModel):
    """A memory to judge and store: the arguments of the `save_memory` tool."""

    model_config = ConfigDict(
        extra="allow", strict=True, regex_engine="python-re",
        json_schema_extra={"anyOf": [
            {"required": [key], "properties": {key: {"type": "string"}}}
            for key in arguments.TEXT_KEYS
        ]},
    )

    text: NonBlank | None = Field(
        default=None, description="The memory as one clear standalone statement.")
    content: NonBlank | None = Field(default=None, description="Alias of `text`.")
    memory: NonBlank | None = Field(default=None, description="Alias of `text`.")
    type: MemoryType | None = Field(
        default=None, description="Memory layer; sets its lifespan.")
    subject: str | None = Field(
        default=None, description="What the memory is about; a newer memory on the same "
                                  "subject retires the older one.")
    source: Source | None = Field(
        default=None, description="Who said it; defaults to agent-inferred.")
    scope: str | None = Field(default=None, description="Namespace; omit for the default.")

    @model_validator(mode="after")
    def _has_text(self) -> SaveBody:
        if self.text is None and self.content is None and self.memory is None:
            raise ValueError('"text" is required')
        return self


class ErrorBody(BaseModel):
    """A request that could not be served; `error` is a stable code, `message` says what to do."""

    error: str
    message: str
    matches: list[str] | None = Field(
        default=None, description="The ids an ambiguous prefix matched (409 only).")


class Health(BaseModel):
    status: Literal["ok"]
    version: str


# ---- handlers --------------------------------------------------------------------------------

def error(status: int, code: str, message: str, matches: list[str] | None = None) -> Response:
    body = ErrorBody(error=code, message=message, matches=matches)
    return JSONResponse(body.model_dump(mode="json", exclude_none=True), status_code=status)


def client_of(request: Request) -> ClientInfo | None:
    """`X-Jamgate-Client: name/version` (version optional), the REST caller's declared name."""
    raw = request.headers.get(CLIENT_HEADER, "").strip()
    name, _, version = raw.partition("/")
    if not name.strip():
        return None
    return ClientInfo(name=name.strip()[:100], version=version.strip()[:100] or None)


def parse_body(raw: bytes) -> Any:
    """A JSON body, parsed as the MCP transport parses one: strict UTF-8 and no lone
    surrogates, nesting at most 200 deep. InvalidArgument (a 400) for anything else."""
    try:
        return from_json(raw)
    except ValueError as exc:
        raise InvalidArgument(f"the request body is not valid JSON ({exc}).") from None


def _strict_save(body: dict[str, Any]) -> None:
    try:
        SaveBody.model_validate(body)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'body'}: {err['msg']}"
            for err in exc.errors()
        )
        raise InvalidArgument(f"invalid request body ({problems}). Nothing was saved.") from exc


def _recall_args(request: Request) -> dict[str, Any]:
    params = request.query_params
    limit = params.get("limit")
    if limit is not None and not _DIGITS.match(limit):
        raise InvalidArgument(f'"limit" must be a positive integer; got {json.dumps(limit)}.')
    kind = params.get("type")
    if kind is not None and kind not in MEMORY_TYPES:
        raise InvalidArgument(
            f"unknown type {json.dumps(kind)}: must be one of {', '.join(MEMORY_TYPES)}.")
    return {"query": params.get("query", ""), "scope": params.get("scope"), "type": kind,
            "limit": int(limit) if limit is not None else None}


class RestApi:
    """The `/v1/memory` handlers over one app."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.limiter = anyio.CapacityLimiter(STORE_CONCURRENCY)

    async def _run(self, work: Callable[[], T]) -> T:
        return await anyio.to_thread.run_sync(work, limiter=self.limiter)

    async def _guarded(self, work: Callable[[], Response]) -> Response:
        try:
            return await self._run(work)
        except InvalidArgument as exc:
            return error(400, "invalid_request", str(exc))
        except NotFound as exc:
            return error(404, "not_found", str(exc))
        except Ambiguous as exc:
            return error(409, "ambiguous", str(exc), exc.matches)
        except JamgateError as exc:
            return error(503, "store_unavailable", str(exc))
        except Exception as exc:  # the server must survive anything a request does
            _log.error(f"REST request crashed: {exc!r}")
            return error(500, "internal_error",
                         "internal server error; nothing was changed. Please report this.")

    async def save(self, request: Request) -> Response:
        raw = await request.body()
        try:
            body = parse_body(raw)
        except InvalidArgument as exc:
            return error(400, "parse_error", str(exc))
        if not isinstance(body, dict):
            return error(400, "invalid_request",
                         'the body must be a JSON object such as {"text": "Jam lives in Athens"}.')
        client = client_of(request)

        def work() -> Response:
            save_request = arguments.save_request(body, client=client)
            _strict_save(body)
            verdict: Verdict = self.app.save(save_request, origin=ORIGIN)
            return JSONResponse(verdict.model_dump(mode="json"),
                                status_code=201 if verdict.stored else 200)

        return await self._guarded(work)

    async def recall(self, request: Request) -> Response:
        def work() -> Response:
            parsed = arguments.recall_args(_recall_args(request), RECALL_CAP)
            result: RecallResult = self.app.recall(parsed.query, limit=parsed.limit,
                                                   scope=parsed.scope, type=parsed.type)
            return JSONResponse(result.model_dump(mode="json"))

        return await self._guarded(work)

    async def forget(self, request: Request) -> Response:
        given: str = request.path_params["id"]
        scope = request.query_params.get("scope")

        def work() -> Response:
            try:
                arguments.normalise_id(given)
            except InvalidArgument as exc:  # a path that cannot be an id names no memory
                raise NotFound(str(exc)) from exc
            result: ForgetResult = self.app.forget(given, scope=scope, origin=ORIGIN)
            return JSONResponse(result.model_dump(mode="json"))

        return await self._guarded(work)

    async def memory(self, request: Request) -> Response:
        if request.method == "POST":
            return await self.save(request)
        return await self.recall(request)

    def routes(self) -> list[Route]:
        return [
            Route("/v1/memory", self.memory, methods=["GET", "POST"], name="memory"),
            Route("/v1/memory/{id}", self.forget, methods=["DELETE"], name="forget"),
        ]


async def healthz(request: Request) -> Response:
    """Liveness for load balancers: status and version, never memory."""
    return JSONResponse(Health(status="ok", version=__version__).model_dump())


async def no_route(request: Request, exc: Exception) -> Response:
    """404 and 405 in the shape the path speaks (REST under /v1, JSON-RPC elsewhere)."""
    status = getattr(exc, "status_code", 404)
    headers = dict(getattr(exc, "headers", None) or {})
    path = request.url.path
    if status == 405:
        code, message = "method_not_allowed", (
            f"{request.method} is not allowed on {path}; allowed: {headers.get('Allow', '')}.")
    elif path == "/v1" or path.startswith("/v1/"):
        code, message = "not_found", f"no REST route at {path}. {ROUTES_HINT}"
    else:
        code, message = "not_found", (f"nothing at {path}. MCP is at /mcp, REST at /v1/memory, "
                                      "its description at /openapi.json.")
    if path == "/v1" or path.startswith("/v1/"):
        response = error(status, code, message)
    else:
        response = JSONResponse({"jsonrpc": "2.0", "id": None,
                                 "error": {"code": -32601, "message": message}},
                                status_code=status)
    response.headers.update(headers)
    return response


# ---- OpenAPI ---------------------------------------------------------------------------------

def _response(description: str, model: str, headers: dict[str, Any] | None = None
              ) -> dict[str, Any]:
    body: dict[str, Any] = {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{model}"}}},
    }
    if headers:
        body["headers"] = headers
    return body


def _no_control_characters() -> str:
    """A pattern refusing control and format characters (Unicode Cc, Cf), as the validation
    stage does. BMP characters as `\\uXXXX`, others literally: every regex engine reads both."""
    ranges: list[tuple[int, int]] = []
    for code in range(sys.maxunicode + 1):
        if unicodedata.category(chr(code)) in ("Cc", "Cf"):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))

    def char(code: int) -> str:
        return f"\\u{code:04x}" if code <= 0xFFFF else chr(code)

    parts = [char(a) if a == b else f"{char(a)}-{char(b)}" for a, b in ranges]
    return "^[^" + "".join(parts) + "]*$"


def key_rules(app: App | None) -> dict[str, int]:
    """The validation stage's length limits for `subject` and `scope`, when it is configured."""
    for configured in (app.stages if app is not None else []):
        if configured.name == "validation":
            options = getattr(configured.stage, "options", None)
            return {key: limit for key in ("subject", "scope")
                    if isinstance(limit := getattr(options, f"max_{key}_length", None), int)}
    return {}


def openapi_document(app: App | None = None) -> dict[str, Any]:
    """The OpenAPI 3.1 document of the REST API, built from the pydantic models' schemas.

    `subject` and `scope` carry the configured validation stage's rules, so that every
    request the document calls valid is judged, and every other one is a 400.
    """
    _, defs = models_json_schema(
        [(SaveBody, "validation"), (Verdict, "serialization"), (RecallResult, "serialization"),
         (ForgetResult, "serialization"), (ErrorBody, "serialization"),
         (Health, "serialization")],
        ref_template="#/components/schemas/{model}",
    )
    schemas = defs["$defs"]
    limits = key_rules(app)
    if limits:
        pattern = _no_control_characters()
        for key, limit in limits.items():
            for branch in schemas["SaveBody"]["properties"][key]["anyOf"]:
                if branch.get("type") == "string":
                    branch.update(maxLength=limit, pattern=pattern)
    unauthorized = _response("No valid bearer token.", "ErrorBody", headers={
        "WWW-Authenticate": {"required": True, "description": "The bearer challenge.",
                             "schema": {"type": "string"}},
    })
    too_large = _response("The request body is over the size limit.", "ErrorBody")
    bad = _response("A usage error: the message names what arrived and what to send.",
                    "ErrorBody")
    scope = {"name": "scope", "in": "query", "required": False,
             "description": "Namespace such as `work/greek`; omit for the default.",
             "schema": {"type": "string"}}
    client = {"name": CLIENT_HEADER, "in": "header", "required": False,
              "description": "The caller's name and version as `name/version`, stored as the "
                             "memory's client.",
              "schema": {"type": "string"}}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Jamgate",
            "version": __version__,
            "description": "One person's memory, shared by every agent they use, behind a "
                           "quality gate. The same gate and the same models as the MCP tools "
                           "at /mcp.",
        },
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearerAuth": {
                "type": "http", "scheme": "bearer",
                "description": "The server's JAMGATE_TOKEN."}},
        },
        "security": [{"bearerAuth": []}],
        "paths": {
            "/v1/memory": {
                "post": {
                    "operationId": "saveMemory",
                    "summary": "Judge one memory and store it if it passes the gate",
                    "description": "Same as the `save_memory` tool. `content` and `memory` "
                                   "are accepted aliases of `text`; unknown keys are ignored. "
                                   "A memory over 32,000 characters is refused by the gate "
                                   "(200, decision `rejected`), never truncated.",
                    "parameters": [client],
                    "requestBody": {"required": True, "content": {"application/json": {
                        "schema": {"$ref": "#/components/schemas/SaveBody"}}}},
                    "responses": {
                        "201": {**_response("Stored: decision `saved` or `superseded`.",
                                            "Verdict"),
                                "links": {"ForgetSaved": {
                                    "operationId": "forgetMemory",
                                    "parameters": {"id": "$response.body#/id",
                                                   "scope": "$response.body#/memory/scope"}}}},
                        "200": _response("Judged, nothing new stored: duplicate, conflict, "
                                         "possible_duplicate or rejected.", "Verdict"),
                        "400": bad, "401": unauthorized, "413": too_large,
                    },
                },
                "get": {
                    "operationId": "recallMemory",
                    "summary": "Recall live memories relevant to a query",
                    "description": "Same as the `recall_memory` tool; an empty query returns "
                                   "the most recent.",
                    "parameters": [
                        {"name": "query", "in": "query", "required": False,
                         "description": "What to look for; empty = most recent.",
                         "schema": {"type": "string"}},
                        scope,
                        {"name": "limit", "in": "query", "required": False,
                         "description": "At most this many (default 5; above 100 is "
                                        "clamped to 100).",
                         "schema": {"type": "integer", "minimum": 1}},
                        {"name": "type", "in": "query", "required": False,
                         "schema": {"type": "string", "enum": list(MEMORY_TYPES)}},
                    ],
                    "responses": {"200": _response("Best first.", "RecallResult"),
                                  "400": bad, "401": unauthorized},
                },
            },
            "/v1/memory/{id}": {
                "delete": {
                    "operationId": "forgetMemory",
                    "summary": "Delete one memory",
                    "description": "Same as the `forget_memory` tool: the full id or an "
                                   "unambiguous prefix of 8+ characters, in its scope.",
                    "parameters": [
                        {"name": "id", "in": "path", "required": True,
                         "schema": {"type": "string", "minLength": 1}},
                        scope,
                    ],
                    "responses": {
                        "200": _response("Deleted.", "ForgetResult"),
                        "400": bad, "401": unauthorized,
                        "404": _response("No memory with that id in the scope.", "ErrorBody"),
                        "409": _response("The prefix matches several memories; `matches` "
                                         "lists them.", "ErrorBody"),
                    },
                },
            },
            "/healthz": {
                "get": {
                    "operationId": "health",
                    "summary": "Liveness: status and version only",
                    "security": [],
                    "responses": {"200": _response("Up.", "Health")},
                },
            },
        },
    }


async def openapi(request: Request) -> Response:
    return JSONResponse(request.app.state.openapi)
