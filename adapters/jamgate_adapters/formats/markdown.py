"""`markdown`: a readable export (write only): per scope, current memories grouped by type,
then the history of superseded ones, each with its date, subject, source and id."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar, TextIO

from jamgate_core.formats import ExportMeta, Reading
from jamgate_core.models import MEMORY_TYPES, MemoryRecord, iso

_HEADINGS = {"identity": "Identity", "preference": "Preferences", "project": "Projects",
             "state": "Current state", None: "Other"}


def _line(record: MemoryRecord) -> str:
    text = " ".join(record.text.split())
    details = [iso(record.created_at)[:10]]
    if record.subject:
        details.append(f"subject `{record.subject}`")
    details.append(record.source)
    if record.expires_at is not None:
        details.append(f"expires {iso(record.expires_at)[:10]}")
    if record.status == "superseded":
        text = f"~~{text}~~"
        when = iso(record.superseded_at)[:10] if record.superseded_at else "?"
        details.append(f"superseded {when}"
                       + (f" by `{record.superseded_by}`" if record.superseded_by else ""))
    return f"- {text} — {' · '.join(details)} · id `{record.id}`"


class MarkdownFormat:
    """Memories as a Markdown document, for reading (it is not imported back)."""

    name: ClassVar[str] = "markdown"
    can_write: ClassVar[bool] = True
    description: ClassVar[str] = "Markdown, for reading (export only)"

    @classmethod
    def detect(cls, path: Path) -> bool:
        return False

    def read(self, path: Path) -> Reading:
        raise NotImplementedError("the markdown format is export-only; import a --format "
                                  "jamgate export instead")

    def write(self, records: Iterable[MemoryRecord], out: TextIO, meta: ExportMeta) -> None:
        by_scope: dict[str, list[MemoryRecord]] = defaultdict(list)
        for record in records:
            by_scope[record.scope].append(record)
        total = sum(len(group) for group in by_scope.values())
        out.write(f"# Memories\n\nExported {iso(meta.exported_at)} by {meta.generator} from "
                  f"{meta.store}: {total} memor{'y' if total == 1 else 'ies'}"
                  f"{' (active only)' if meta.active_only else ''}.\n")
        for scope in sorted(by_scope):
            group = by_scope[scope]
            out.write(f"\n## Scope `{scope}`\n")
            current = [r for r in group if r.status == "active"]
            for kind in (*MEMORY_TYPES, None):
                of_kind = [r for r in current if r.type == kind]
                if of_kind:
                    out.write(f"\n### {_HEADINGS[kind]}\n\n")
                    out.writelines(_line(r) + "\n" for r in of_kind)
            history = [r for r in group if r.status == "superseded"]
            if history:
                out.write("\n### History (superseded)\n\n")
                out.writelines(_line(r) + "\n" for r in history)
