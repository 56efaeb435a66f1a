"""Set one member of one object in a JSON or JSONC file by splicing its text.

Everything outside the member we set keeps its exact bytes: comments, trailing commas, key
order, spacing, line endings, number spellings and escapes. The new text is rendered in the
file's own style (indent unit, `": "` or `":"`, ASCII escapes or not, a trailing comma after
the last member or not) and the result is read again and compared with the intended data
before anyone writes it. JSON with comments (`//`, `/* */`) and trailing commas — VS Code's,
Zed's and OpenCode's files — is edited the same way; anything else is refused (`Unreadable`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

BOM = "\ufeff"


class Unreadable(ValueError):
    """The file cannot be edited losslessly; the message says why and what to do."""


@dataclass(frozen=True)
class Member:
    key: str
    key_start: int
    value_start: int
    value_end: int
    comma: int | None = None  # the index of the comma after it, when there is one


@dataclass(frozen=True)
class Style:
    newline: str
    unit: str | None  # None: a compact (single-line) file
    colon: str  # ": " or ":"
    comma: str  # ", " or "," — between members on one line
    ascii: bool


# ---- reading ------------------------------------------------------------------------------


def _describe(exc: json.JSONDecodeError) -> str:
    return f"{exc.msg} at line {exc.lineno}, column {exc.colno}"


def parse(text: str) -> Any:
    """JSON, or JSON with comments and trailing commas; `Unreadable` says why not."""
    body = text[len(BOM):] if text.startswith(BOM) else text
    try:
        return json.loads(body)
    except json.JSONDecodeError:
        pass
    try:
        return json.loads(strip_jsonc(body))
    except json.JSONDecodeError as exc:
        raise Unreadable(f"it is not valid JSON ({_describe(exc)})") from None


parse_lenient = parse  # the name status reads with


def strip_jsonc(text: str) -> str:
    """`text` without `//` and `/* */` comments and trailing commas (strings untouched)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            end = _string_end(text, i)
            out.append(text[i:end])
            i = end
        elif text.startswith(("//", "/*"), i):
            i = _comment_end(text, i)
        elif ch == "," and _skip_ws(text, i + 1) < n and text[_skip_ws(text, i + 1)] in "}]":
            i += 1  # a trailing comma
        else:
            out.append(ch)
            i += 1
    return "".join(out)


# ---- scanning JSON with comments ----------------------------------------------------------

_WS = " \t\r\n"


def _comment_end(text: str, i: int) -> int:
    """The index just past the comment opening at `i` (a line comment stops at its newline)."""
    if text.startswith("//", i):
        while i < len(text) and text[i] not in "\r\n":
            i += 1
        return i
    close = text.find("*/", i + 2)
    return len(text) if close < 0 else close + 2


def _skip_ws(text: str, i: int) -> int:
    """Past whitespace and comments."""
    while i < len(text):
        if text[i] in _WS:
            i += 1
        elif text.startswith(("//", "/*"), i):
            i = _comment_end(text, i)
        else:
            break
    return i


def _string_end(text: str, i: int) -> int:
    """The index just past the string opening at `i` (an unterminated one ends the text)."""
    j = i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
        elif text[j] == '"':
            return j + 1
        else:
            j += 1
    return len(text)


def _value_end(text: str, i: int) -> int:
    ch = text[i]
    if ch == '"':
        return _string_end(text, i)
    if ch in "{[":
        depth, j = 0, i
        while j < len(text):
            c = text[j]
            if c == '"':
                j = _string_end(text, j)
                continue
            if text.startswith(("//", "/*"), j):
                j = _comment_end(text, j)
                continue
            if c in "{[":
                depth += 1
            elif c in "}]":
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        return len(text)
    j = i
    while j < len(text) and text[j] not in ",}]/" + _WS:
        j += 1
    return j


def _members(text: str, open_at: int) -> tuple[list[Member], int]:
    """The members of the object opening at `open_at`, and the index of its `}`."""
    members: list[Member] = []
    j = _skip_ws(text, open_at + 1)
    while text[j] != "}":
        key_start, key_end = j, _string_end(text, j)
        key = json.loads(text[key_start:key_end])
        colon = _skip_ws(text, key_end)
        value_start = _skip_ws(text, colon + 1)
        value_end = _value_end(text, value_start)
        j = _skip_ws(text, value_end)
        comma = j if text[j] == "," else None
        members.append(Member(key, key_start, value_start, value_end, comma))
        if comma is not None:
            j = _skip_ws(text, comma + 1)
    return members, j


def _find(members: list[Member], key: str, where: str) -> Member | None:
    found = [m for m in members if m.key == key]
    if len(found) > 1:
        raise Unreadable(f'"{key}" appears {len(found)} times in {where}; JSON readers keep '
                         "only one of them, so jamgate will not guess — remove the duplicate")
    return found[0] if found else None


# ---- style --------------------------------------------------------------------------------


def _line_prefix(text: str, at: int) -> str:
    return text[text.rfind("\n", 0, at) + 1:at]


def detect_style(text: str, root_at: int) -> Style:
    newline = "\r\n" if "\r\n" in text else "\n"
    has_escapes = re.search(r"\\u[0-9a-fA-F]{4}", text) is not None
    ascii_only = has_escapes and all(ord(c) < 128 for c in text)
    members, _ = _members(text, root_at)
    unit: str | None = "  "
    colon, comma = ": ", ", "
    if members:
        first = members[0]
        between = text[root_at + 1:first.key_start]
        prefix = _line_prefix(text, first.key_start)
        unit = prefix if "\n" in between and prefix and not prefix.strip() else None
        key_end = _string_end(text, first.key_start)
        colon = ":" if text[key_end:first.value_start] == ":" else ": "
        comma = "," if colon == ":" else ", "
        if len(members) > 1:
            gap = text[first.value_end:members[1].key_start]
            comma = ", " if gap == ", " else ","
    elif "\n" not in text.strip():
        unit = "  "  # `{}`: nothing to copy, use the common two spaces
    return Style(newline, unit, colon, comma, ascii_only)


def render(value: Any, style: Style, base: str | None) -> str:
    """`value` as JSON text in `style`, continuing lines at indentation `base`."""
    if style.unit is None or base is None:
        return json.dumps(value, ensure_ascii=style.ascii,
                          separators=(style.comma, style.colon))
    text = json.dumps(value, indent=style.unit, ensure_ascii=style.ascii,
                      separators=(",", style.colon))
    return text.replace("\n", style.newline + base)


# ---- editing ------------------------------------------------------------------------------


def _line_end_after(text: str, at: int) -> int | None:
    """Where the line holding `at` ends when only spaces and one comment follow `at` on it
    (so a new line can go there without moving that comment), else None."""
    i = at
    while i < len(text) and text[i] in " \t":
        i += 1
    if text.startswith("//", i):
        i = _comment_end(text, i)
    elif text.startswith("/*", i):
        end = _comment_end(text, i)
        if "\n" in text[i:end]:
            return None
        i = end
        while i < len(text) and text[i] in " \t":
            i += 1
    return i if i < len(text) and text[i] in "\r\n" else None


def _insert(text: str, style: Style, open_at: int, members: list[Member], close_at: int,
            own: str | None, key: str, value: Any) -> str:
    """Add `"key": value` as the last member of the object spanning open_at..close_at;
    `own` is the indentation of the line that opens it (None: not at a line start). A
    comment after the last member stays on its line; a trailing comma stays trailing."""
    key_text = json.dumps(key, ensure_ascii=style.ascii)
    if members:
        last = members[-1]
        prefix = _line_prefix(text, last.key_start)
        multiline = "\n" in text[open_at:last.key_start] and not prefix.strip()
        after = last.value_end if last.comma is None else last.comma + 1
        line_end = _line_end_after(text, after)
        trailing = "," if last.comma is not None else ""
        if style.unit is not None and multiline and line_end is not None:
            piece = (f"{style.newline}{prefix}{key_text}{style.colon}"
                     f"{render(value, style, prefix)}{trailing}")
            text = text[:line_end] + piece + text[line_end:]
        else:
            gap = style.comma[1:] if trailing else style.comma
            piece = f"{gap}{key_text}{style.colon}{render(value, style, None)}{trailing}"
            return text[:after] + piece + text[after:]
        return text if trailing else text[:last.value_end] + "," + text[last.value_end:]
    inside = text[open_at + 1:close_at]
    head = inside.rstrip() if inside.strip() else ""  # comments in an empty object stay
    if style.unit is None or own is None:
        inner = f"{head}{' ' if head else ''}{key_text}{style.colon}{render(value, style, None)}"
    else:
        base = own + style.unit
        inner = (f"{head}{style.newline}{base}{key_text}{style.colon}"
                 f"{render(value, style, base)}{style.newline}{own}")
    return text[:open_at + 1] + inner + text[close_at:]


def _indent_of(text: str, at: int) -> str | None:
    prefix = _line_prefix(text, at)
    return None if prefix.strip() else prefix


def _replace(text: str, style: Style, member: Member, value: Any) -> str:
    base = _indent_of(text, member.key_start)
    return text[:member.value_start] + render(value, style, base) + text[member.value_end:]


def fresh(container: str, name: str, value: Any) -> str:
    """A new file holding only our entry."""
    return json.dumps({container: {name: value}}, indent=2, ensure_ascii=False) + "\n"


def set_entry(text: str, container: str, name: str, value: Any) -> str:
    """`text` with `<container>.<name>` set to `value`; every other byte kept.

    Raises `Unreadable` when the file is not JSON (with comments), its root or container is not an
    object, a key is duplicated, or the spliced result does not read back as intended.
    """
    if not text.strip():
        return fresh(container, name, value)
    data = parse(text)
    bom = BOM if text.startswith(BOM) else ""
    body = text[len(bom):]
    if not isinstance(data, dict):
        raise Unreadable(f"its top level is a JSON {type(data).__name__}, not an object")
    current = data.get(container)
    if container in data and not isinstance(current, dict):
        raise Unreadable(f'its "{container}" is a JSON {type(current).__name__}, not an '
                         "object")
    root_at = _skip_ws(body, 0)
    style = detect_style(body, root_at)
    root_members, root_close = _members(body, root_at)
    holder = _find(root_members, container, "the top level")
    if holder is None:
        result = _insert(body, style, root_at, root_members, root_close,
                         _indent_of(body, root_at), container, {name: value})
    else:
        members, close = _members(body, holder.value_start)
        existing = _find(members, name, f'"{container}"')
        if existing is None:
            result = _insert(body, style, holder.value_start, members, close,
                             _indent_of(body, holder.key_start), name, value)
        else:
            result = _replace(body, style, existing, value)
    expected = dict(data)
    expected[container] = {**(current or {}), name: value}
    if parse(result) != expected:  # pragma: no cover - a scanner bug, never ship it
        raise Unreadable("the edit did not read back as intended, so nothing was written")
    return bom + result
