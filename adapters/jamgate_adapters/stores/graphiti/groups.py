"""Scopes ↔ Graphiti `group_id`s: an injective, reversible encoding.

Graphiti accepts only `[A-Za-z0-9_-]` in a `group_id`, and on FalkorDB a group is also the name
of its own graph. A `-` breaks Graphiti's own fulltext group filter on FalkorDB (the escaped
`\\-` never matches), and RediSearch compares text case-insensitively, so the encoding uses only
`[a-z0-9_]`: lowercase ASCII letters and digits stand for themselves, every other character
(including `_` and uppercase letters) becomes `_` plus two lowercase hex digits per UTF-8 byte.
Literal characters never start with `_`, so the code is prefix-free: decoding is unambiguous and
two scopes never share a group. A fixed prefix (`jamgate_` by default) marks Jamgate's graphs.

`amir/greek` → `jamgate_amir_2fgreek`; `a_2fb` → `jamgate_a_5f2fb`.
"""

from __future__ import annotations

import re

PREFIX_PATTERN = r"^[a-z0-9_]+$"
_LITERAL = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_ESCAPE = re.compile(r"_([0-9a-f]{2})")


def encode_scope(scope: str, prefix: str) -> str:
    """The group id of `scope`."""
    out: list[str] = [prefix]
    for ch in scope:
        if ch in _LITERAL:
            out.append(ch)
        else:
            out.extend(f"_{byte:02x}" for byte in ch.encode("utf-8", "surrogatepass"))
    return "".join(out)


def decode_group(group_id: str, prefix: str) -> str | None:
    """The scope a group id encodes, or None when it is not one of ours."""
    if not group_id.startswith(prefix):
        return None
    body = group_id[len(prefix):]
    raw = bytearray()
    i = 0
    while i < len(body):
        ch = body[i]
        if ch in _LITERAL:
            raw += ch.encode("ascii")
            i += 1
            continue
        match = _ESCAPE.match(body, i)
        if match is None:
            return None
        raw.append(int(match.group(1), 16))
        i = match.end()
    try:
        scope = bytes(raw).decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return None
    # Only the canonical spelling is ours (an escaped `a` would decode to the same scope).
    return scope if encode_scope(scope, prefix) == group_id else None
