"""Is the OAuth state readable? HTTP mode checks before it starts, and `jamgate doctor` too.

The check reads through the `AuthState` contract (a look-up of a client and of a token that do
not exist), which parses the whole of the file store's sidecar and queries both SQLite tables;
a store that also offers `oauth_check() -> list[str]` (every record decoded) is asked as well.
Light on purpose: no MCP SDK import, so `jamgate doctor` stays quick.
"""

from __future__ import annotations

from jamgate_core.contracts import AuthState
from jamgate_core.errors import JamgateError

PROBE_CLIENT = "jamgate-state-probe"
PROBE_KEY = "0" * 64
REMEDY = ("Your memories are not affected. Move the OAuth state aside or repair it (agents "
          "connected with OAuth then sign in again), or set JAMGATE_OAUTH=off to serve the "
          "static JAMGATE_TOKEN only; `jamgate doctor` checks it again.")


def state_problems(state: AuthState) -> list[str]:
    """What makes the OAuth state unreadable, empty when it reads."""
    try:
        state.oauth_client(PROBE_CLIENT)
        state.oauth_get("access", PROBE_KEY)
    except Exception as exc:  # whatever the store raised, it is reported, never a 500 later
        return [describe(state, exc)]
    check = getattr(state, "oauth_check", None)
    if not callable(check):
        return []
    try:
        return [str(problem) for problem in check()]
    except Exception as exc:
        return [describe(state, exc)]


def describe(state: AuthState, exc: BaseException) -> str:
    """A store's error as one sentence that names where the state lives and what to do."""
    if isinstance(exc, JamgateError):
        return str(exc)
    location = getattr(state, "location", None)
    where = f" in {location()}" if callable(location) else ""
    return (f"the OAuth state{where} cannot be read ({type(exc).__name__}: {exc}). {REMEDY}")
