"""The `memory://profile` MCP resource: who the agent is talking to, in one read.

The person's durable memories (types `identity` and `preference`, live, in the default scope
or the one named) as a short Markdown document within a character budget: identity first, then
preferences; within each, the most trusted source first, then the newest. What does not fit is
counted, never cut mid-line, so an agent knows to call `recall_memory` for the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import unquote

from jamgate_core.errors import NotFound
from jamgate_core.models import DEFAULT_SCOPE, TRUST, MemoryView, canonical_scope

if TYPE_CHECKING:
    from jamgate_core.app import App

PROFILE_URI = "memory://profile"
PROFILE_NAME = "profile"
PROFILE_TITLE = "Who you are talking to"
PROFILE_DESCRIPTION = (
    "The person's durable identity and preference memories, most trusted first, within a size "
    "budget. Read it at the start of a session; use recall_memory for anything else.")
PROFILE_MIME = "text/markdown"
PROFILE_TEMPLATE = PROFILE_URI + "/{scope}"  # RFC 6570: the scope is percent-encoded
PROFILE_SCOPED_NAME = "profile-in-scope"
PROFILE_SCOPED_TITLE = "Who you are talking to, in one scope"
PROFILE_SCOPED_DESCRIPTION = (
    "The profile of one memory scope (percent-encode it: work%2Fclient for work/client).")
DEFAULT_BUDGET_CHARS = 4000
_SECTIONS = (("identity", "Identity"), ("preference", "Preferences"))
_PAGE = 1000


def _durable(app: App, kind: str, scope: str) -> list[MemoryView]:
    found: list[MemoryView] = []
    cursor = None
    while True:
        page = app.list(scope=scope, status="active", type=kind, limit=_PAGE, cursor=cursor)
        found += page.memories
        cursor = page.next_cursor
        if cursor is None:
            break
    found.sort(key=lambda m: m.created_at, reverse=True)
    found.sort(key=lambda m: TRUST[m.source], reverse=True)  # stable: newest within a rank
    return found


def profile_text(app: App, budget_chars: int = DEFAULT_BUDGET_CHARS,
                 scope: str | None = None) -> str:
    """The profile document, at most `budget_chars` characters long."""
    scope = canonical_scope(scope)
    header = "# Profile\n"
    if scope != DEFAULT_SCOPE:
        header = f"# Profile (scope {scope})\n"
    parts = [header]
    used = len(header)
    left_out = 0
    shown = 0
    for kind, title in _SECTIONS:
        memories = _durable(app, kind, scope)
        if not memories:
            continue
        heading = f"\n## {title}\n"
        lines = [f"- {' '.join(m.text.split())}\n" for m in memories]
        reserve = 80  # room for the "more not shown" line
        if used + len(heading) + len(lines[0]) + reserve > budget_chars:
            left_out += len(lines)
            continue
        parts.append(heading)
        used += len(heading)
        for index, line in enumerate(lines):
            if used + len(line) + reserve > budget_chars:
                left_out += len(lines) - index
                break
            parts.append(line)
            used += len(line)
            shown += 1
    if shown == 0 and left_out == 0:
        parts.append("\nNo identity or preference memories yet.\n")
    if left_out:
        parts.append(f"\n({left_out} more not shown: call recall_memory to find them.)\n")
    return "".join(parts)[:budget_chars]


def read_profile(app: App, uri: str, budget_chars: int = DEFAULT_BUDGET_CHARS) -> str:
    """The text of `memory://profile` (or `memory://profile/<scope>`); NotFound otherwise."""
    uri = str(uri)
    if uri == PROFILE_URI:
        return profile_text(app, budget_chars)
    if uri.startswith(PROFILE_URI + "/"):
        try:  # one RFC 6570 simple expansion: the scope as percent-encoded UTF-8
            scope = unquote(uri[len(PROFILE_URI) + 1:], errors="strict")
        except UnicodeDecodeError:
            scope = ""
        if scope.strip():
            return profile_text(app, budget_chars, scope=scope)
    raise NotFound(f"No resource {uri}. Jamgate serves {PROFILE_URI} (and "
                   f"{PROFILE_URI}/<scope>).")
