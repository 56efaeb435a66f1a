"""Check one source file of the measuring corpus against CATEGORIES.md; print its counts.

Usage: python tests/corpus/gate2/check_source.py tests/corpus/gate2/<source>.jsonl
       [--against tests/corpus/gate2]

With --against, also count the texts this source shares with every other source in that
folder (folded: case, accents and spacing ignored). A new training source must share none,
with the test source least of all; only the count is printed, never another source's text.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from collections import Counter
from pathlib import Path

KEEP = {"identity", "preference", "agent-preference", "project", "relationship", "decision",
        "life-event", "credential-lookalike"}
REJECT = {"transient", "tool-output", "assistant-self", "general-knowledge", "pleasantry",
          "injection", "one-off-request", "credential", "junk", "question", "profile-dump",
          "speculation"}
TYPES = {None, "identity", "preference", "project"}
SOURCES = {"user-explicit", "user-confirmed", "agent-inferred"}
FIELDS = {"text", "text_parts", "type", "source", "category", "expect", "lang", "origin"}


def problems(record: dict, line: int) -> list[str]:
    """What is wrong with one record."""
    found = []
    if set(record) - FIELDS:
        found.append(f"line {line}: unknown field(s) {sorted(set(record) - FIELDS)}")
    has_text = isinstance(record.get("text"), str)
    has_parts = isinstance(record.get("text_parts"), list)
    if has_text == has_parts:
        found.append(f"line {line}: give exactly one of text / text_parts")
    category = record.get("category")
    if category not in KEEP | REJECT:
        found.append(f"line {line}: unknown category {category!r}")
    expected = "pass" if category in KEEP else "reject"
    if record.get("expect") != expected:
        found.append(f"line {line}: {category} must expect {expected!r}")
    if record.get("type") not in TYPES:
        found.append(f"line {line}: type {record.get('type')!r} not in {sorted(map(str, TYPES))}")
    if record.get("source") not in SOURCES:
        found.append(f"line {line}: source {record.get('source')!r}")
    lang = record.get("lang")
    if not (isinstance(lang, str) and len(lang) == 2 and lang.islower()):
        found.append(f"line {line}: lang must be an ISO 639-1 code")
    if not record.get("origin"):
        found.append(f"line {line}: origin missing")
    return found


def _key(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in folded if not unicodedata.combining(c)).split())


def _texts(path: Path) -> set[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    return {_key(r.get("text") or "".join(r.get("text_parts", []))) for r in records}


def overlaps(path: Path, folder: Path) -> list[str]:
    """One line for each other source that shares texts with `path`."""
    mine = _texts(path)
    found = []
    for other in sorted(folder.glob("*.jsonl")):
        if other.resolve() != path.resolve() and (shared := len(mine & _texts(other))):
            found.append(f"shares {shared} text(s) with {other.name}")
    return found


def main(path: str, against: str | None = None) -> int:
    records, errors = [], []
    if against is not None:
        errors.extend(overlaps(Path(path), Path(against)))
    for number, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as exc:
            errors.append(f"line {number}: not JSON ({exc})")
            continue
        errors.extend(problems(record, number))
        records.append(record)
    texts = Counter(r.get("text") or "".join(r.get("text_parts", [])) for r in records)
    errors.extend(f"repeated text: {t[:60]!r}" for t, n in texts.items() if n > 1)
    for error in errors:
        print(error)
    categories = Counter(r.get("category") for r in records)
    langs = Counter(r.get("lang") for r in records)
    non_english = sum(n for lang, n in langs.items() if lang != "en")
    print(f"{len(records)} records; non-English {non_english / max(len(records), 1):.0%} "
          f"in {len(langs) - ('en' in langs)} languages")
    for label, group in (("keep", KEEP), ("reject", REJECT)):
        print(label, {c: categories.get(c, 0) for c in sorted(group)})
        langs_here = {r.get("lang") for r in records if r.get("category") in group}
        print(f"  languages with {label} cases: {len(langs_here)}")
    return 1 if errors else 0


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if len(arguments) == 3 and arguments[1] == "--against":
        sys.exit(main(arguments[0], arguments[2]))
    if len(arguments) != 1:
        sys.exit(__doc__)
    sys.exit(main(arguments[0]))
