"""The "Add to Cursor" link: Cursor's MCP install deeplink for one server entry.

`cursor://anysphere.cursor-deeplink/mcp/install?name=<name>&config=<base64 of the entry's JSON>`
(the web form `https://cursor.com/install-mcp?…` carries the same query). The entry is what
`jamgate setup` writes into `~/.cursor/mcp.json`; a link never carries a token.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

SCHEME_PREFIX = "cursor://anysphere.cursor-deeplink/mcp/install"
WEB_PREFIX = "https://cursor.com/install-mcp"


def cursor_link(name: str, entry: dict[str, Any], web: bool = False) -> str:
    """The install link for `entry` under `name`."""
    if "headers" in entry:
        raise ValueError("an install link must not carry headers (the token would leak)")
    config = base64.b64encode(json.dumps(entry, separators=(",", ":")).encode()).decode()
    return f"{WEB_PREFIX if web else SCHEME_PREFIX}?{urlencode({'name': name, 'config': config})}"


def parse_cursor_link(link: str) -> tuple[str, dict[str, Any]]:
    """(name, entry) from an install link; ValueError when it is not one."""
    parts = urlsplit(link)
    if f"{parts.scheme}://{parts.netloc}{parts.path}" not in (SCHEME_PREFIX, WEB_PREFIX):
        raise ValueError(f"not a Cursor MCP install link: {link[:80]}")
    query = parse_qs(parts.query, strict_parsing=True)
    try:
        (name,), (config,) = query["name"], query["config"]
        entry = json.loads(base64.b64decode(config, validate=True))
    except (KeyError, ValueError, binascii.Error) as exc:
        raise ValueError(f"the link's name or config is malformed ({exc})") from None
    if not isinstance(entry, dict):
        raise ValueError("the link's config is not a JSON object")
    return name, entry
