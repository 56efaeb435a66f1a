"""`jamgate review`: the review queue on the command line (`--list`), or the review page on
loopback, opened with a one-time sign-in URL (a `jamgate.plugins` module)."""

from __future__ import annotations

import argparse
import contextlib
import json
import secrets
import socket
import sys
from typing import TYPE_CHECKING, Any

from jamgate_core.cli import EXIT_OK
from jamgate_core.hookspecs import hookimpl
from jamgate_server.review.queue import jamgate_shutdown, jamgate_startup, pending, queue_of

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from jamgate_core.app import App
    from jamgate_core.contracts import Register

__all__ = ["jamgate_register_commands", "jamgate_shutdown", "jamgate_startup"]
LOOPBACK = "127.0.0.1"


def local_site(app: App) -> tuple[Starlette, Any]:
    """The review page alone, for loopback: signed in only through one-time codes."""
    from starlette.applications import Starlette
    from starlette.middleware.trustedhost import TrustedHostMiddleware

    from jamgate_server.review.site import ReviewSite, Sessions

    sessions = Sessions(secrets.token_urlsafe(32))
    site = ReviewSite(app, sessions)
    starlette = Starlette(routes=site.routes())
    starlette.add_middleware(TrustedHostMiddleware, allowed_hosts=[LOOPBACK, "localhost"])
    return starlette, sessions


def run_review(app: App, args: argparse.Namespace) -> int:
    if args.list:
        items = pending(app, prune=True)
        if args.json:
            from jamgate_server.review.site import held_view
            print(json.dumps([held_view(h) for h in items], ensure_ascii=False, indent=1))
            return EXIT_OK
        if queue_of(app.store) is None:
            print(f"The {app.store_name} store keeps no review queue.")
            return EXIT_OK
        if not items:
            print("Nothing waits for review.")
        for held in items:
            print(f"{held.item.id}  {held.kind}  {held.reason_code}  (until {held.expires})")
            print(f"  new:   {held.text}")
            if held.touches:
                other = app.store.get(held.item.scope, held.touches)
                print(f"  other: {other.text if other else '(gone)'}  [{held.touches}]")
        return EXIT_OK
    import uvicorn

    starlette, sessions = local_site(app)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no delayed-ACK stall
    sock.bind((LOOPBACK, args.port or 0))
    sock.listen(128)  # connections queue from now on: the URL works before uvicorn is up
    port = sock.getsockname()[1]
    url = f"http://{LOOPBACK}:{port}/review/login?once={sessions.one_time_code()}"
    print(f"Jamgate review on http://{LOOPBACK}:{port}/review (Ctrl-C to stop). Open once:\n"
          f"{url}", file=sys.stderr)
    if not args.no_browser:
        import webbrowser
        webbrowser.open(url)
    config = uvicorn.Config(starlette, log_level="warning", access_log=False, lifespan="off")
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run(sockets=[sock])
    return EXIT_OK


@hookimpl
def jamgate_register_commands(register: Register) -> None:
    parser = register(
        "review", "show what waits for your review, or open the review page", run_review,
        json=True, app=True,
        description="Show the review queue (--list), or serve the review page on loopback "
                    "and open it with a one-time sign-in URL. In HTTP mode the page is at "
                    "/review on the server.")
    parser.add_argument("--list", action="store_true", help="print the queue and exit")
    parser.add_argument("--port", type=int, default=0, help="loopback port (default: any)")
    parser.add_argument("--no-browser", action="store_true",
                        help="print the URL without opening a browser")
