"""The contract of a `jamgate.formats` plugin: a file format memories are imported from or
exported to.

A format class has a `name`, says whether it can write (`can_write`), and answers:
- `detect(path) -> bool` (classmethod): whether the file looks like this format, for
  `jamgate import --from auto`; cheap, never raises;
- `read(path) -> Reading`: every record of the file as a `SaveRequest`, or a `MalformedFile`
  naming the file, the record number and the problem. Reading never touches a store;
- `write(records, out, meta)` (when `can_write`): the records to a text stream.

Formats are loaded by name with `jamgate_core.loader.load_format`; the core never imports an
adapter.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import ClassVar, Protocol, TextIO, runtime_checkable

from jamgate_core.errors import JamgateError
from jamgate_core.models import MemoryRecord, SaveRequest


class MalformedFile(JamgateError):
    """A file that cannot be imported as it is; nothing was read into the store."""

    def __init__(self, path: Path | str, problem: str, record: int | None = None) -> None:
        self.path, self.problem, self.record = Path(path), problem, record
        where = f"record #{record}: " if record is not None else ""
        super().__init__(f"{path}: {where}{problem}")


@dataclass
class Reading:
    """What a format read: the records, in file order, and what it noticed on the way."""

    records: list[SaveRequest]
    files_read: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # recognised, deliberately not read
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ExportMeta:
    """What an export says about itself."""

    exported_at: datetime
    generator: str
    store: str
    scopes: tuple[str, ...]
    active_only: bool


@runtime_checkable
class Format(Protocol):
    """One import/export file format."""

    name: ClassVar[str]
    can_write: ClassVar[bool]
    description: ClassVar[str]

    @classmethod
    def detect(cls, path: Path) -> bool:
        """Whether `path` looks like this format (for `--from auto`)."""

    def read(self, path: Path) -> Reading:
        """Every record in `path`; raises MalformedFile, touching no store."""

    def write(self, records: Iterable[MemoryRecord], out: TextIO, meta: ExportMeta) -> None:
        """Write `records` to `out`; formats that cannot write raise NotImplementedError."""
