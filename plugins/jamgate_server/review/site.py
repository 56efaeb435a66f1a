"""The review page: server-rendered HTML at `/review`, its sessions, CSRF and headers (D-158).

Sign-in turns a credential into a short-lived session cookie: an `Authorization: Bearer`
header (JAMGATE_TOKEN or an OAuth-issued token) on any page, the same token typed into the
sign-in form, or (locally, `jamgate review`) a one-time code in the URL it opens. The cookie is
`<expiry>.<nonce>.<mac>`, an HMAC under a key derived from the server's secret, so every
instance sharing the token accepts it; `HttpOnly`, `SameSite=Strict`, `Path=/review`.

Every action is a POST carrying a CSRF token bound to the session (an HMAC of the cookie), from
the same origin (`Origin` and `Sec-Fetch-Site`, when the browser sends them). Every answer has
a strict Content-Security-Policy: scripts, styles and images from the page's own origin only;
nothing is loaded from anywhere else.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import re
import secrets
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from jamgate_core.errors import JamgateError
from jamgate_core.models import (
    LIST_STATUSES,
    MEMORY_TYPES,
    SOURCES,
    MemoryRecord,
    canonical_scope,
    utcnow,
)
from jamgate_server.review.actions import Reviewer
from jamgate_server.review.queue import Held, pending

if TYPE_CHECKING:
    from jamgate_core.app import App

HERE = Path(__file__).parent
PREFIX = "/review"
COOKIE = "jamgate_review"
SESSION_SECONDS = 30 * 60
PAGE_LIMIT = 100
DUE_DAYS = 14
RECORD_LINES = 200
STATIC = {"review.css": "text/css; charset=utf-8", "review.js": "text/javascript; charset=utf-8",
          "icon.svg": "image/svg+xml"}
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "same-origin", "Cache-Control": "no-store",
           "X-Frame-Options": "DENY"}
VIEWS = ("", "/memories", "/due", "/record")
PATHS = frozenset({PREFIX + view for view in VIEWS} | {
    f"{PREFIX}/login", f"{PREFIX}/action", f"{PREFIX}/undo",
    *(f"{PREFIX}/static/{name}" for name in STATIC)})

Check = Callable[[Request], Awaitable[bool]]


class Sessions:
    """Signed, expiring session cookies and their CSRF tokens; one-time sign-in codes."""

    def __init__(self, secret: str, seconds: float = SESSION_SECONDS) -> None:
        self.key = hashlib.sha256(b"jamgate-review-session\0" + secret.encode()).digest()
        self.seconds = seconds
        self._codes: set[str] = set()
        self._lock = threading.Lock()

    def _mac(self, text: str) -> str:
        return hmac.new(self.key, text.encode(), hashlib.sha256).hexdigest()

    def issue(self) -> str:
        body = f"{int(time.time() + self.seconds)}.{secrets.token_hex(16)}"
        return f"{body}.{self._mac(body)}"

    def valid(self, cookie: str | None) -> bool:
        if not cookie or cookie.count(".") != 2:
            return False
        body, _, mac = cookie.rpartition(".")
        expiry = body.partition(".")[0]
        return (hmac.compare_digest(mac, self._mac(body)) and expiry.isdigit()
                and int(expiry) > time.time())

    def csrf(self, cookie: str) -> str:
        return self._mac("csrf\0" + cookie)

    def one_time_code(self) -> str:
        code = secrets.token_urlsafe(24)
        with self._lock:
            self._codes.add(code)
        return code

    def redeem(self, code: str) -> bool:
        with self._lock:
            if code in self._codes:
                self._codes.discard(code)
                return True
        return False


def _same_origin(request: Request) -> bool:
    """A cross-site request is refused: `Sec-Fetch-Site` and `Origin`, when sent, must say
    this very origin."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == request.headers.get("host", "")


def _local_path(target: str) -> str:
    """A redirect target kept inside the page (anything else goes to the queue)."""
    local = target.startswith("/") and not target.startswith(("//", "/\\"))
    return target if local and urlsplit(target).path in {PREFIX + v for v in VIEWS} else PREFIX


class ReviewSite:
    """The routes of the review page over one app."""

    def __init__(self, app: App, sessions: Sessions, check_bearer: Check | None = None,
                 check_token: Callable[[str], Awaitable[bool]] | None = None) -> None:
        self.app = app
        self.sessions = sessions
        self.reviewer = Reviewer(app)
        self.check_bearer = check_bearer
        self.check_token = check_token
        self.templates = Environment(loader=FileSystemLoader(HERE / "templates"),
                                     autoescape=select_autoescape(["html"]))

    def routes(self) -> list[Route]:
        return [
            Route(PREFIX, self.page("queue"), methods=["GET"]),
            Route(f"{PREFIX}/memories", self.page("memories"), methods=["GET"]),
            Route(f"{PREFIX}/due", self.page("due"), methods=["GET"]),
            Route(f"{PREFIX}/record", self.page("record"), methods=["GET"]),
            Route(f"{PREFIX}/login", self.login, methods=["GET", "POST"]),
            Route(f"{PREFIX}/action", self.action, methods=["POST"]),
            Route(f"{PREFIX}/undo", self.undo, methods=["POST"]),
            *(Route(f"{PREFIX}/static/{name}", self.static, methods=["GET"]) for name in STATIC),
        ]

    # ---- answers --------------------------------------------------------------------------

    def _html(self, name: str, code: int = 200, **context: Any) -> HTMLResponse:
        body = self.templates.get_template(f"{name}.html").render(prefix=PREFIX, **context)
        return HTMLResponse(body, status_code=code, headers=HEADERS)

    def _set_cookie(self, response: Response, cookie: str, secure: bool = False) -> None:
        """`secure` when the request came over HTTPS (the proxy's X-Forwarded-Proto)."""
        response.set_cookie(COOKIE, cookie, max_age=int(self.sessions.seconds), path=PREFIX,
                            httponly=True, samesite="strict", secure=secure)

    def _refuse(self, status: int, message: str) -> HTMLResponse:
        headers = {"WWW-Authenticate": 'Bearer realm="jamgate"'} if status == 401 else None
        response = self._html("signin", code=status, message=message)
        if headers:
            response.headers.update(headers)
        return response

    async def _session(self, request: Request) -> tuple[str | None, bool]:
        """The session cookie to use, and whether it is new (a bearer header signed in)."""
        cookie = request.cookies.get(COOKIE)
        if self.sessions.valid(cookie):
            return cookie, False
        if self.check_bearer is not None and await self.check_bearer(request):
            return self.sessions.issue(), True
        return None, False

    async def static(self, request: Request) -> Response:
        name = request.url.path.rsplit("/", 1)[-1]
        body = (HERE / "static" / name).read_bytes()
        headers = {**HEADERS, "Cache-Control": "private, max-age=300"}
        return Response(body, media_type=STATIC[name], headers=headers)

    # ---- sign-in --------------------------------------------------------------------------

    async def login(self, request: Request) -> Response:
        if request.method == "GET":
            code = request.query_params.get("once", "")
            if code and self.sessions.redeem(code):
                return self._signed_in(request, self.sessions.issue())
            return self._refuse(401, "Sign in with the server's token." if not code else
                                "This sign-in link was already used or is wrong: run "
                                "`jamgate review` again.")
        if not _same_origin(request):
            return self._refuse(403, "A sign-in from another site is refused.")
        form = await request.form()
        token = str(form.get("token", ""))
        if self.check_token is not None and token and await self.check_token(token):
            return self._signed_in(request, self.sessions.issue())
        return self._refuse(401, "That token is not accepted.")

    def _signed_in(self, request: Request, cookie: str) -> Response:
        response = RedirectResponse(PREFIX, status_code=303, headers=HEADERS)
        self._set_cookie(response, cookie, request.url.scheme == "https")
        return response

    # ---- pages ----------------------------------------------------------------------------

    def page(self, view: str) -> Callable[[Request], Awaitable[Response]]:
        async def render(request: Request) -> Response:
            cookie, fresh = await self._session(request)
            if cookie is None:
                return self._refuse(401, "Sign in to review your memory.")
            context = getattr(self, f"_{view}")(request)
            last = self.reviewer.last
            response = self._html(view, view=view,
                              csrf=self.sessions.csrf(cookie), undo=last.label if last else None,
                              message=request.query_params.get("msg", ""),
                              here=str(request.url.path) + (f"?{request.url.query}"
                                                            if request.url.query else ""),
                              **context)
            if fresh:
                self._set_cookie(response, cookie, request.url.scheme == "https")
            return response
        return render

    def _queue(self, request: Request) -> dict[str, Any]:
        items = pending(self.app, PAGE_LIMIT)
        others: dict[str, MemoryRecord | None] = {}
        for held in items:
            if held.touches and held.touches not in others:
                others[held.touches] = self.app.store.get(held.item.scope, held.touches)
        return {"items": [(held, others.get(held.touches or "")) for held in items]}

    def _memories(self, request: Request) -> dict[str, Any]:
        q = request.query_params
        query, scope = q.get("q", "").strip(), q.get("scope", "").strip() or None
        kind = q.get("type") if q.get("type") in MEMORY_TYPES else None
        status = str(q.get("status")) if q.get("status") in LIST_STATUSES else "active"
        source = q.get("source") if q.get("source") in SOURCES else None
        client, subject = q.get("client", "").strip(), q.get("subject", "").strip()
        store, now = self.app.store, utcnow()
        where = canonical_scope(scope)
        if subject:
            page = store.list(where, status="all", type=None, limit=1000, cursor=None, now=now)
            records = sorted((r for r in page.records if r.subject == subject),
                             key=lambda r: r.created_at)
        elif query:
            hits = self.app.recall(query, limit=PAGE_LIMIT, scope=where, type=kind)
            found = [store.get(where, hit.id) for hit in hits.memories]
            records = [r for r in found if r is not None]
        else:
            page = store.list(where, status=status, type=kind, limit=PAGE_LIMIT * 4,
                              cursor=None, now=now)
            records = page.records
        if source:
            records = [r for r in records if r.source == source]
        if client:
            records = [r for r in records if r.client and r.client.name == client]
        return {"records": records[:PAGE_LIMIT], "q": query, "scope": scope or "",
                "type": kind or "", "status": status, "source": source or "",
                "client": client, "subject": subject, "types": MEMORY_TYPES,
                "statuses": LIST_STATUSES, "sources": SOURCES, "scopes": store.scopes()}

    def _due(self, request: Request) -> dict[str, Any]:
        scope = canonical_scope(request.query_params.get("scope"))
        now = utcnow()
        soon = now + timedelta(days=DUE_DAYS)
        page = self.app.store.list(scope, status="active", type=None, limit=1000, cursor=None,
                                   now=now)
        expiring = [r for r in page.records if r.type == "project" and r.expires_at
                    and now < r.expires_at <= soon]
        inferred = [r for r in page.records if r.source == "agent-inferred"
                    and r not in expiring][:PAGE_LIMIT]
        return {"expiring": sorted(expiring, key=lambda r: r.expires_at or now),
                "inferred": inferred, "days": DUE_DAYS, "scope": scope}

    def _record(self, request: Request) -> dict[str, Any]:
        path = self.app.settings.gate_log_path(self.app.store_dir())
        week = (utcnow() - timedelta(days=7)).strftime("%Y-%m-%dT%H:%M:%S")
        recent, counts = read_record(path, week) if path is not None else ([], Counter())
        return {"entries": recent, "counts": counts.most_common(),
                "log": str(path) if path else None}

    # ---- actions --------------------------------------------------------------------------

    async def _authorised_post(self, request: Request) -> tuple[dict[str, str], Response | None]:
        cookie, _ = await self._session(request)
        if cookie is None:
            return {}, self._refuse(401, "Sign in to review your memory.")
        if not _same_origin(request):
            return {}, self._refuse(403, "A request from another site is refused.")
        form = {k: str(v) for k, v in (await request.form()).items()}
        if not hmac.compare_digest(form.get("csrf", ""), self.sessions.csrf(cookie)):
            return form, self._refuse(403, "This form is stale (no valid CSRF token): reload "
                                           "the page and try again.")
        return form, None

    async def action(self, request: Request) -> Response:
        form, refused = await self._authorised_post(request)
        if refused is not None:
            return refused
        back = _local_path(form.get("back", PREFIX))
        name, item = form.get("action", ""), form.get("item", "")
        scope, record = form.get("scope", "default"), form.get("id", "")
        r = self.reviewer
        acts: dict[str, Callable[[], Any]] = {
            "keep_new": lambda: r.keep_new(item),
            "keep_retire": lambda: r.keep_retire(item),
            "merge": lambda: r.merge(item, form.get("text", "")),
            "discard": lambda: r.discard(item),
            "confirm": lambda: r.confirm(scope, record),
            "extend": lambda: r.extend(scope, record),
            "forget": lambda: r.forget(scope, record),
        }
        if name not in acts:
            return self._refuse(400, f"Unknown action {name!r}.")
        try:
            done = acts[name]()
            message = f"Done: {done.label}."
        except JamgateError as exc:
            message = f"Not done: {exc}"
        return _back(back, message)

    async def undo(self, request: Request) -> Response:
        form, refused = await self._authorised_post(request)
        if refused is not None:
            return refused
        try:
            message = f"Undone: {self.reviewer.undo()}."
        except JamgateError as exc:
            message = f"Not undone: {exc}"
        return _back(_local_path(form.get("back", PREFIX)), message)


# The head of every line the gate log writes (`ts`, `decision`, then `reason` when present):
# counting a week of decisions reads these with one pass of a regex, not a JSON parse a line.
# (A text's own quotes are escaped, so `{"ts":"` only starts a line.)
_HEAD = re.compile(rb'\{"ts":"([^"]*)","decision":"([^"]*)"(?:,"reason":"([^"]*)")?')


def read_record(path: Path, since: str) -> tuple[list[dict[str, Any]], Counter[tuple[str, str]]]:
    """The newest `RECORD_LINES` entries of the gate log (rotated part first), newest first,
    and the count of each (decision, reason) since the timestamp `since`."""
    data = b""
    for part in (path.with_name(path.name + ".1"), path):
        with contextlib.suppress(FileNotFoundError):
            data += part.read_bytes()
    moment = since.encode()
    raw_counts = Counter((decision, reason) for ts, decision, reason in _HEAD.findall(data)
                         if ts >= moment)
    counts = Counter({(d.decode(), r.decode()): n for (d, r), n in raw_counts.items()})
    recent: list[dict[str, Any]] = []
    for raw in reversed(data.splitlines()[-RECORD_LINES * 2:]):
        with contextlib.suppress(ValueError):
            entry = json.loads(raw)
            if isinstance(entry, dict):
                recent.append(entry)
        if len(recent) == RECORD_LINES:
            break
    return recent, counts


def _back(path: str, message: str) -> Response:
    joiner = "&" if "?" in path else "?"
    return RedirectResponse(f"{path}{joiner}msg={quote(message)}", status_code=303,
                            headers=HEADERS)


def held_view(held: Held) -> dict[str, Any]:
    """A pending item as `jamgate review --list --json` prints it."""
    return {"id": held.item.id, "kind": held.kind, "reason_code": held.reason_code,
            "message": held.message, "touches": held.touches, "scope": held.item.scope,
            "text": held.text, "source": held.candidate.get("source"),
            "client": (held.candidate.get("client") or {}).get("name"),
            "provenance": held.candidate.get("provenance"), "expires": held.expires}
