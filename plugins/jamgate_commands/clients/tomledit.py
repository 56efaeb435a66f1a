"""Set one table under one table of a TOML file (Codex CLI's `[mcp_servers.jamgate]`).

tomlkit keeps comments, spacing and order. A file is edited only if tomlkit writes it back
byte-identical when nothing changes; the edited text is then read with the standard `tomllib`
and compared with the intended data before anyone writes it.
"""

from __future__ import annotations

import tomllib
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import InlineTable, Table

from jamgate_commands.clients.jsonedit import Unreadable


def parse(text: str) -> dict[str, Any]:
    """The data of a TOML file; `Unreadable` when it is not valid TOML."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Unreadable(f"it is not valid TOML ({exc})") from None


def _plain(value: Any) -> Any:
    return value.unwrap() if hasattr(value, "unwrap") else value


def _item(value: Any) -> Any:
    """A tomlkit item for a plain value: dicts become inline tables."""
    if isinstance(value, dict):
        table = tomlkit.inline_table()
        table.update(value)
        return table
    return value


def fresh(container: str, name: str, value: dict[str, Any]) -> str:
    """A new file holding only our table."""
    doc = tomlkit.document()
    outer = tomlkit.table(is_super_table=True)
    outer[name] = _table(value)
    doc[container] = outer
    return tomlkit.dumps(doc)


def _table(value: dict[str, Any]) -> Table:
    table = tomlkit.table()
    for key, item in value.items():
        table[key] = _item(item)
    return table


def set_entry(text: str, container: str, name: str, value: dict[str, Any]) -> str:
    """`text` with `[<container>.<name>]` holding exactly `value`; everything else kept.

    Keys already in the table are updated in place, so comments inside it survive.
    """
    if not text.strip():
        return fresh(container, name, value)
    data = parse(text)
    holder = data.get(container)
    if container in data and not isinstance(holder, dict):
        raise Unreadable(f"its {container} is not a table")
    try:
        doc = tomlkit.parse(text)
    except TOMLKitError as exc:  # pragma: no cover - tomllib accepted it
        raise Unreadable(f"tomlkit cannot read it ({exc})") from None
    if tomlkit.dumps(doc) != text:
        raise Unreadable("it does not round-trip through tomlkit byte for byte, so an edit "
                         "could change more than the jamgate table")
    try:
        result = _edit(doc, text, container, name, value)
    except (TOMLKitError, ValueError, TypeError) as exc:
        raise Unreadable(f"its {container} cannot be edited in place ({exc}); add the "
                         "jamgate table by hand") from None
    expected = dict(data)
    expected[container] = {**(holder or {}), name: value}
    try:
        readback = tomllib.loads(result)
    except tomllib.TOMLDecodeError:
        readback = None
    if readback != expected:
        raise Unreadable(f"its {container} is written in a form (inline table or dotted keys) "
                         "that jamgate cannot extend losslessly; add the jamgate table by hand")
    return result


def _edit(doc: Any, text: str, container: str, name: str, value: dict[str, Any]) -> str:
    outer = doc.get(container)
    if isinstance(outer, InlineTable):
        raise ValueError(f"{container} is an inline table")
    current = outer.get(name) if outer is not None else None
    if isinstance(current, Table):
        for key in [k for k in current if k not in value]:
            del current[key]
        for key, item in value.items():
            if key not in current or _plain(current[key]) != item:
                current[key] = _item(item)
        return str(tomlkit.dumps(doc))
    if current is not None:
        raise ValueError(f"{container}.{name} is not a table")
    table = _table(value)
    if outer is None:
        outer = tomlkit.table(is_super_table=True)
        outer[name] = table
        doc[container] = outer
    else:
        outer[name] = table
    result = str(tomlkit.dumps(doc))
    header = f"[{container}.{name}]"
    at = result.find(header)
    if at > 0 and not result[:at].endswith("\n\n"):  # a blank line before our table
        result = result[:at] + ("\n" if result[:at].endswith("\n") else "\n\n") + result[at:]
        at = result.find(header)
    end = result.find("\n[", at + len(header))
    if end >= 0 and result[end - 1] != "\n":  # and one after it, before the next table
        result = result[:end] + "\n" + result[end:]
    return result
