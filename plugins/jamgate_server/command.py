"""`jamgate serve`: MCP on stdio, or Streamable HTTP with the REST API (a `jamgate.plugins`
module; the transports are imported only when the command runs)."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from typing import TYPE_CHECKING

from jamgate_core import __version__
from jamgate_core.cli import EXIT_OK, configure_logging
from jamgate_core.hookspecs import hookimpl

if TYPE_CHECKING:
    from jamgate_core.contracts import Application, Register
    from jamgate_server.early import FrontEnd

_log = logging.getLogger(__name__)


def cmd_serve(args: argparse.Namespace) -> int:
    if not (getattr(args, "log_level", None) or os.environ.get("JAMGATE_LOG_LEVEL")):
        configure_logging("info")  # a server says what it serves, and logs each request
    if args.http or (_may_set_http() and _settings_http()):
        return _serve_http(args)
    return _serve_stdio()


def _serve_http(args: argparse.Namespace) -> int:
    from jamgate_core.app import open_app
    from jamgate_core.settings import load_settings
    from jamgate_server.auth import require_token
    from jamgate_server.http import serve_http

    require_token(load_settings())  # refuse before opening anything
    app = open_app()
    try:
        return serve_http(app, host=args.host, port=args.port)
    finally:
        app.close()


def _serve_stdio() -> int:
    """MCP on stdio: the front end reads the wire at once (`early.py`) while this thread
    imports the SDK and opens the app."""
    interactive = sys.stdin.isatty()
    front = _start_front_end()
    import anyio

    from jamgate_core.app import open_app
    from jamgate_server.mcp import serve_stdio

    if not front.begin_opening():
        exit_now(EXIT_OK)  # the client left, owed nothing
    app = open_app()
    try:
        if interactive:
            describe = app.describe()
            _log.info(
                f"Jamgate {__version__}: serving MCP on stdio. Store: {describe['store']} at "
                f"{describe['location']}. Waiting for an MCP client (Ctrl-C to stop); see the "
                "README for the client snippet.")
        anyio.run(serve_stdio, app, front)
    except KeyboardInterrupt:
        pass
    finally:
        app.close()
    exit_now(EXIT_OK)
    return EXIT_OK  # pragma: no cover - exit_now does not return


def _start_front_end() -> FrontEnd:
    from jamgate_core.loader import EMBEDDERS, PLUGINS, discover
    from jamgate_core.settings import default_home
    from jamgate_server.early import FrontEnd
    from jamgate_server.reply_cache import FILE_NAME, ReplyCache, cache_dir, fingerprint
    from jamgate_server.shipped import open_shipped

    found = discover(PLUGINS)
    plugins = [f"{i.name}={i.target} ({i.distribution} {_version_of(i.distribution)})"
               for i in found]
    config_file = default_home() / "jamgate.toml"
    cache = ReplyCache(cache_dir() / FILE_NAME, fingerprint(config_file, plugins))
    return FrontEnd.start(cache, exit_now, open_shipped(config_file, found, discover(EMBEDDERS)))


def _version_of(distribution: str) -> str:
    """A plugin distribution's version (Jamgate's own is in the fingerprint already)."""
    if distribution == "jamgate":
        return ""
    import importlib.metadata as md

    try:
        return md.version(distribution)
    except md.PackageNotFoundError:
        return "?"


def _may_set_http() -> bool:
    """Whether the settings could turn HTTP mode on: a JAMGATE_HTTP variable (any case) or an
    `http` key in jamgate.toml (or a file that cannot be read: the settings say why)."""
    if any(name.upper() == "JAMGATE_HTTP" for name in os.environ):
        return True
    import tomllib

    from jamgate_core.settings import default_home

    path = default_home() / "jamgate.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return True
    return any(key.lower() == "http" for key in data)


def _settings_http() -> bool:
    from jamgate_core.settings import load_settings

    return load_settings().http


def exit_now(code: int) -> None:
    """End the process once the client has hung up and the app is closed (every acknowledged
    save is committed by then): run the atexit handlers and flush the standard streams, then
    skip the interpreter's teardown of the SDK's thousands of objects (~150 ms, issue 21)."""
    import atexit

    atexit._run_exitfuncs()
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


@hookimpl
def jamgate_doctor(app: Application) -> list[tuple[str, str]] | None:
    """`jamgate doctor`: whether the OAuth state HTTP mode would serve from is readable (an
    error when OAuth is on, since `serve --http` then refuses to start)."""
    from jamgate_core.contracts import AuthState
    from jamgate_server.oauth_state import state_problems

    if not isinstance(app.store, AuthState):
        return None
    problems = state_problems(app.store)
    if not problems:
        return [("ok", "OAuth state: readable")]
    level = "error" if app.settings.oauth else "warning"
    return [(level, f"OAuth state: {problem}") for problem in problems]


@hookimpl
def jamgate_register_commands(register: Register) -> None:
    from jamgate_server.limits import describe_limits

    serve = register(
        "serve", "run the MCP server: on stdio (what an MCP client starts), or with --http "
        "over Streamable HTTP with the REST API", cmd_serve,
        description="Run the MCP server: on stdio (what an MCP client starts), or with --http "
                    "over Streamable HTTP with the REST API. HTTP mode needs JAMGATE_TOKEN "
                    "with at least 128 bits of entropy.")
    serve.formatter_class = argparse.RawDescriptionHelpFormatter
    serve.epilog = (
        "HTTP limits (environment variables, defaults shown; see docs/security.md):\n"
        f"{describe_limits()}\n"
        "Wrong tokens from one address get 429 after the free failures, for 1 s doubling up "
        "to the\nlockout maximum; the right token is never slowed. Registrations past the "
        "burst get 429;\nover all addresses ten times the burst and the rate.")
    serve.add_argument("--http", action="store_true",
                       help="serve over HTTP (also JAMGATE_HTTP=1); needs JAMGATE_TOKEN")
    serve.add_argument("--host", help="bind address (default 127.0.0.1, or JAMGATE_HOST)")
    serve.add_argument("--port", type=int, help="port (default 8420, or JAMGATE_PORT / PORT)")
