"""Memory lists copied out of another assistant (Claude, ChatGPT), D-035.

What a person can take out of those products is the list their settings page shows, pasted
into a text, Markdown or JSON file, possibly dropped into the account-data export (a `.zip` or
its unpacked folder). This module finds that file, reads its entries (bullets, numbering,
headings, fenced blocks and dates handled), and recognises the conversation logs of the
account export so they can be reported as skipped: conversations are never mined.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any, ClassVar, TextIO

from jamgate_adapters.formats._common import (
    DATE,
    decode,
    epoch_or_iso,
    file_time,
    guess_type,
    load_json,
    parse_date,
)
from jamgate_core.formats import ExportMeta, MalformedFile, Reading
from jamgate_core.models import MemoryRecord, SaveRequest

MAX_MEMBER_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 4
TEXT_SUFFIXES = frozenset({".json", ".md", ".txt", ".markdown", ".text"})
CONVERSATION_LOGS = frozenset({
    "conversations.json", "conversation.json", "chat.html", "chat.json",
    "shared_conversations.json", "message_feedback.json", "model_comparisons.json",
    "projects.json",
})
ACCOUNT_FILES = frozenset({"user.json", "users.json"})
MEMORY_HINTS = ("memor", "preference", "profile", "personaliz", "user context",
                "model set context")
TEXT_KEYS = ("text", "content", "memory", "value", "statement", "fact", "summary", "body")
DATE_KEYS = ("created_at", "createdAt", "create_time", "saved_at", "savedAt", "updated_at",
             "updatedAt", "update_time", "timestamp", "date", "time")
LIST_KEYS = frozenset({"memories", "memory", "entries", "saved_memories", "savedmemories",
                       "user_memories", "model_set_context", "modelsetcontext", "facts",
                       "preferences", "profile", "items"})
MAX_JSON_DEPTH = 8

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^\s*(?:#{1,6}\s|\*\*[^*]+\*\*:?\s*$|__[^_]+__:?\s*$)")
_RULE = re.compile(r"^\s*(?:[-*_]\s*){3,}$")
_LABEL = re.compile(r"^[A-Za-z][A-Za-z ]{0,38}:\s*$")
_TITLE = re.compile(r"^(?:saved |my |manage )?memor(?:y|ies)\s*:?$", re.IGNORECASE)
_BULLET = re.compile(r"^\s*(?:[-*•‣>]|\d{1,3}[.)])\s+")
_LEADING_DATE = re.compile(rf"^[\[(]?(?P<date>{DATE})[\])]?\s*(?:[-–—:|]\s*)?", re.IGNORECASE)
_TRAILING_DATE = re.compile(
    rf"\s*[\[(](?:(?:saved|added|updated|created)(?: on)?:?\s*)?(?P<date>{DATE})[\])]\s*$",
    re.IGNORECASE)
_QUOTES = "\"'“”‘’"


@dataclass(frozen=True)
class Source:
    """One file of what the person pointed at: its name as shown, size, when it was written,
    and how to read it (only memory files are ever read)."""

    name: str
    size: int
    written: datetime
    load: Callable[[], bytes]
    explicit: bool = False

    @property
    def basename(self) -> str:
        return PurePosixPath(self.name.replace(":", "/")).name.lower()


@dataclass(frozen=True)
class Entry:
    text: str
    date: datetime | None


# ---- finding the memory file ---------------------------------------------------------------

def _sources(path: Path) -> Iterator[Source]:
    """Every file of a folder (to depth 4), a zip, or the one file named."""
    if path.is_dir():
        for child in sorted(path.rglob("*")):
            if child.is_file() and len(child.relative_to(path).parts) <= MAX_DEPTH:
                yield _file_source(child, f"{path.name}/{child.relative_to(path).as_posix()}")
        return
    if not path.is_file():
        raise MalformedFile(path, "does not exist")
    if path.suffix.lower() == ".zip" or zipfile.is_zipfile(path):
        yield from _zip_sources(path)
        return
    yield _file_source(path, str(path), explicit=True)


def _file_source(path: Path, name: str, explicit: bool = False) -> Source:
    return Source(name, path.stat().st_size, file_time(path), path.read_bytes, explicit)


def _zip_sources(path: Path) -> Iterator[Source]:
    try:
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if info.is_dir() or len(PurePosixPath(info.filename).parts) > MAX_DEPTH + 1:
                    continue
                yield Source(f"{path.name}:{info.filename}", info.file_size,
                             datetime(*info.date_time, tzinfo=UTC),
                             lambda info=info: archive.read(info))  # type: ignore[misc]
    except (zipfile.BadZipFile, NotImplementedError, RuntimeError, OSError) as exc:
        raise MalformedFile(path, f"is not a readable zip archive ({exc})") from None


def _kind(source: Source) -> str:
    """`log`, `account`, `memory` or `other`."""
    base = source.basename
    if base in CONVERSATION_LOGS:
        return "log"
    if base in ACCOUNT_FILES:
        return "account"
    spaced = base.replace("-", " ").replace("_", " ")
    if source.explicit or (PurePosixPath(base).suffix in TEXT_SUFFIXES
                           and any(hint in spaced for hint in MEMORY_HINTS)):
        return "memory"
    return "other"


# ---- reading entries -----------------------------------------------------------------------

def text_entries(text: str) -> list[Entry]:
    """Entries of a pasted list: one per remaining prose line."""
    entries: list[Entry] = []
    fenced = False
    for raw in text.splitlines():
        if _FENCE.match(raw):
            fenced = not fenced
            continue
        if fenced or not raw.strip() or _HEADING.match(raw) or _RULE.match(raw) \
                or _LABEL.match(raw.strip()) or _TITLE.match(raw.strip()):
            continue
        line = _BULLET.sub("", raw, count=1).strip()
        date = None
        leading = _LEADING_DATE.match(line)
        if leading and leading.end() < len(line):
            date = parse_date(leading["date"])
            line = line[leading.end():]
        else:
            trailing = _TRAILING_DATE.search(line)
            if trailing and trailing.start() > 0:
                date = parse_date(trailing["date"])
                line = line[:trailing.start()]
        line = line.strip()
        if len(line) >= 2 and line[0] in _QUOTES and line[-1] in _QUOTES:
            line = line[1:-1].strip()
        line = line.replace("**", "").strip()
        if len(line) >= 4:
            entries.append(Entry(line, date))
    return entries


def _dated(item: dict[str, Any]) -> datetime | None:
    for key in DATE_KEYS:
        if key in item:
            moment = epoch_or_iso(item[key])
            if moment is not None:
                return moment
    return None


def json_entries(value: Any, key: str | None = None, depth: int = 0) -> list[Entry]:
    """Entries found in a JSON document, best effort (see the module docstring)."""
    if depth > MAX_JSON_DEPTH:
        return []
    memoryish = key is not None and (key.lower() in LIST_KEYS or "memor" in key.lower())
    if isinstance(value, str):
        return text_entries(value) if memoryish else []
    entries: list[Entry] = []
    if isinstance(value, list):
        for item in value:
            if isinstance(item, str) and memoryish and len(item.strip()) >= 4:
                entries += [Entry(e.text, e.date) for e in text_entries(item)]
            elif isinstance(item, dict) and any(
                    isinstance(item.get(k), str) and len(item[k].strip()) >= 4
                    for k in TEXT_KEYS):
                text = next(item[k] for k in TEXT_KEYS
                            if isinstance(item.get(k), str) and len(item[k].strip()) >= 4)
                entries.append(Entry(text.strip(), _dated(item)))
            else:
                entries += json_entries(item, key, depth + 1)
    elif isinstance(value, dict):
        for child_key, child in value.items():
            entries += json_entries(child, str(child_key), depth + 1)
    return entries


# ---- the format ----------------------------------------------------------------------------

class VendorFormat:
    """Shared by `claude` and `chatgpt`; subclasses set the vendor's names and help."""

    name: ClassVar[str]
    vendor: ClassVar[str]
    where_to_copy: ClassVar[str]
    can_write: ClassVar[bool] = False
    description: ClassVar[str]

    @classmethod
    def detect(cls, path: Path) -> bool:
        return False  # a pasted list has no signature: say --from claude|chatgpt

    def read(self, path: Path) -> Reading:
        reading = Reading(records=[])
        chosen: list[tuple[Source, bytes]] = []
        for source in _sources(path):
            kind = _kind(source)
            if kind == "log":
                reading.skipped.append(source.name)
            elif kind == "memory" and source.size > MAX_MEMBER_BYTES:
                if source.explicit:
                    raise MalformedFile(path, f"is larger than {MAX_MEMBER_BYTES // 2**20} MB: "
                                              "that is not a memory list (Jamgate never mines "
                                              "chat history)")
                reading.notes.append(f"not read: {source.name} (over "
                                     f"{MAX_MEMBER_BYTES // 2**20} MB)")
            elif kind == "memory":
                chosen.append((source, source.load()))
        if not chosen:
            raise MalformedFile(path, self._missing(reading.skipped))
        for source, data in chosen:
            entries = self._entries(source, data)
            reading.files_read.append(source.name)
            reading.records += [self._request(entry, source) for entry in entries]
        if not reading.records:
            raise MalformedFile(path, f"no memory entries found in {', '.join(reading.files_read)}"
                                      f". {self._shape()}")
        return reading

    def _entries(self, source: Source, data: bytes) -> list[Entry]:
        text = decode(data, source.name)
        stripped = text.lstrip()
        if source.name.lower().endswith(".json") or stripped[:1] in ("{", "["):
            try:
                return json_entries(load_json(text, source.name))
            except MalformedFile:
                if source.name.lower().endswith(".json"):
                    raise
        return text_entries(text)

    def _request(self, entry: Entry, source: Source) -> SaveRequest:
        return SaveRequest(text=entry.text, type=guess_type(entry.text),  # type: ignore[arg-type]
                           source="user-confirmed", created_at=entry.date or source.written,
                           provenance=f"import:{self.name}")

    def _missing(self, logs: list[str]) -> str:
        message = (f"no memory file found. {self.vendor}'s account data export does not contain "
                   "your memory entries")
        if logs:
            message += (f"; it holds conversation logs ({', '.join(logs)}), which Jamgate "
                        "never mines")
        return f"{message}. {self._shape()}"

    def _shape(self) -> str:
        return (f"Copy the list from {self.vendor} ({self.where_to_copy}) into a text or "
                "Markdown file, one memory per line (bullets, headings and dates are fine), "
                "and import that file (or drop it into the export folder or zip as "
                "memories.md).")

    def write(self, records: Iterable[MemoryRecord], out: TextIO, meta: ExportMeta) -> None:
        raise NotImplementedError(f"{self.name} is import-only")
