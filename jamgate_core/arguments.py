"""Turn the raw arguments of a tool call (MCP, REST or CLI) into validated requests.

A malformed call is an `InvalidArgument`: a usage error naming what arrived and what to send,
never a verdict, never logged. Unknown extra keys are ignored.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from jamgate_core.errors import InvalidArgument
from jamgate_core.models import LIST_STATUSES, MEMORY_TYPES, SOURCES, ClientInfo, SaveRequest

TEXT_KEYS = ("text", "content", "memory")
_ID_LABEL = re.compile(r"""^[\s"'`(\[<{]*(?:id\b\s*[:=]?\s*)?""", re.IGNORECASE)
_ID_EDGES = "\"'`()[]<>{}.,;:!?* \t\r\n"
_ID_CHARS = re.compile(r"^[0-9a-z_-]+$")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _received(arguments: dict[str, Any]) -> str:
    if not arguments:
        return "no arguments were provided"
    return "received keys: " + ", ".join(arguments)


def save_text(arguments: dict[str, Any], tool: str = "save_memory") -> str:
    """The memory text: `text`, else the aliases `content` or `memory` (first usable wins)."""
    for key in TEXT_KEYS:
        value = arguments.get(key)
        if isinstance(value, str) and value.strip():
            return value
    problem = ""
    if "text" in arguments and not isinstance(arguments["text"], str):
        problem = f' ("text" was {_kind(arguments["text"])}, not a string)'
    elif "text" in arguments:
        problem = ' ("text" was empty)'
    raise InvalidArgument(
        f'"text" is required and must be a non-empty string; {_received(arguments)}{problem}. '
        f'Example: {tool}({{"text": "Jam lives in Athens", "type": "identity"}}). '
        "Nothing was saved and the gate did not judge this call."
    )


def _optional_string(arguments: dict[str, Any], key: str) -> str | None:
    value = arguments.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidArgument(f'"{key}" must be a string; got {_kind(value)}.')
    return value.strip() or None


def _choice(arguments: dict[str, Any], key: str, allowed: tuple[str, ...], why: str) -> str | None:
    value = _optional_string(arguments, key)
    if value is not None and value not in allowed:
        raise InvalidArgument(
            f"unknown {key} {json.dumps(value, ensure_ascii=False)}: must be one of "
            f"{', '.join(allowed)}. {why}"
        )
    return value


def save_request(arguments: dict[str, Any], *, client: ClientInfo | None = None,
                 provenance: str | None = None, tool: str = "save_memory") -> SaveRequest:
    """Validate `save_memory` / `check_memory` arguments."""
    text = save_text(arguments, tool)
    memory_type = _choice(arguments, "type", MEMORY_TYPES,
                          "Nothing was saved: the type sets how long a memory lives.")
    source = _choice(arguments, "source", SOURCES, "Nothing was saved.")
    return SaveRequest(
        text=text,
        type=memory_type,  # type: ignore[arg-type]
        subject=_optional_string(arguments, "subject"),
        source=source or "agent-inferred",  # type: ignore[arg-type]
        scope=_optional_string(arguments, "scope") or "default",
        client=client,
        provenance=provenance,
    )


def positive_int(arguments: dict[str, Any], key: str, default: int, cap: int) -> int:
    """A positive integer argument; values above `cap` are clamped, not errors."""
    value = arguments.get(key)
    if value is None:
        return default
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidArgument(f'"{key}" must be a positive integer; got {json.dumps(value)}.')
    return min(value, cap)


@dataclass(frozen=True)
class RecallArgs:
    query: str
    limit: int
    scope: str | None
    type: str | None


def recall_args(arguments: dict[str, Any], cap: int) -> RecallArgs:
    query = arguments.get("query")
    if query is not None and not isinstance(query, str):
        raise InvalidArgument(f'"query" must be a string; got {_kind(query)}.')
    return RecallArgs(
        query=query or "",
        limit=positive_int(arguments, "limit", 5, cap),
        scope=_optional_string(arguments, "scope"),
        type=_choice(arguments, "type", MEMORY_TYPES, ""),
    )


@dataclass(frozen=True)
class ListArgs:
    scope: str | None
    status: str
    type: str | None
    limit: int
    cursor: str | None


def list_args(arguments: dict[str, Any], cap: int) -> ListArgs:
    return ListArgs(
        scope=_optional_string(arguments, "scope"),
        status=_choice(arguments, "status", LIST_STATUSES, "") or "active",
        type=_choice(arguments, "type", MEMORY_TYPES, ""),
        limit=positive_int(arguments, "limit", 50, cap),
        cursor=_optional_string(arguments, "cursor"),
    )


def forget_id(arguments: dict[str, Any]) -> str:
    value = arguments.get("id")
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgument(
            f'"id" is required and must be a non-empty string; {_received(arguments)}. '
            "Pass the id printed by recall_memory or list_memories."
        )
    normalise_id(value)
    return value


def normalise_id(given: str) -> str:
    """An id as the server prints it, from any of the forms an agent may echo back:
    `id: …`, `[id …]`, quoted, trailing punctuation. Raises when it cannot be an id."""
    needle = _ID_LABEL.sub("", given.strip()).strip(_ID_EDGES).lower()
    if needle and not _ID_CHARS.match(needle):
        raise InvalidArgument(
            f'"{given}" is not a memory id: ids contain only letters, digits and dashes '
            "(as printed by recall_memory)."
        )
    return needle
