"""What the format plugins share: reading JSON strictly, dates in the shapes people write,
and the conservative type guess used for other products' memories."""

from __future__ import annotations

import codecs
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from jamgate_core.formats import MalformedFile
from jamgate_core.models import MEMORY_TYPES, SOURCES, ClientInfo, parse_iso

T = TypeVar("T")
MAX_FILE_BYTES = 64 * 1024 * 1024  # a memory file this large is not a memory file


def read_text(path: Path, limit: int = MAX_FILE_BYTES) -> str:
    """A file's UTF-8 text (a BOM dropped), or MalformedFile saying why not."""
    try:
        size = path.stat().st_size
        if size > limit:
            raise MalformedFile(path, f"is {size:,} bytes, more than the {limit:,} a memory "
                                      "file can be; point at the memory file itself")
        data = path.read_bytes()
    except OSError as exc:
        raise MalformedFile(path, f"cannot be read ({exc.strerror or exc})") from None
    return decode(data, path)


def decode(data: bytes, path: Path | str) -> str:
    try:
        return data.removeprefix(codecs.BOM_UTF8).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedFile(path, f"is not UTF-8 text (byte {exc.start})") from None


def load_json(text: str, path: Path | str) -> Any:
    """Parsed JSON, or MalformedFile naming the line and column of the problem."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedFile(path, f"is not valid JSON ({exc.msg} at line {exc.lineno}, "
                                  f"column {exc.colno})") from None


def looks_like_json(path: Path, head: int = 4096) -> Any | None:
    """The parsed JSON of a small-enough `.json`/`.jsonl` file for sniffing, else None."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None
        return json.loads(path.read_bytes().removeprefix(codecs.BOM_UTF8))
    except (OSError, ValueError):
        return None


# ---- strict field readers (native and predecessor records) ---------------------------------

class Fields:
    """Typed access to one record's fields; every problem names the record."""

    def __init__(self, raw: Any, path: Path | str, number: int) -> None:
        if not isinstance(raw, dict):
            raise MalformedFile(path, f"is a {type(raw).__name__}, not a JSON object", number)
        self.raw, self.path, self.number = raw, path, number

    def fail(self, problem: str) -> MalformedFile:
        return MalformedFile(self.path, problem, self.number)

    def text(self, key: str = "text") -> str:
        value = self.raw.get(key)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f'has no non-empty "{key}" string')
        return value

    def string(self, key: str) -> str | None:
        value = self.raw.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self.fail(f'"{key}" is a {type(value).__name__}, not a string')
        return value.strip() or None

    def choice(self, key: str, choices: tuple[str, ...], default: T) -> str | T:
        value = self.raw.get(key)
        if value is None:
            return default
        if value not in choices:
            raise self.fail(f'"{key}" is {value!r}; expected one of {", ".join(choices)}')
        return str(value)

    def moment(self, key: str) -> datetime | None:
        value = self.raw.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self.fail(f'"{key}" is a {type(value).__name__}, not an ISO-8601 date string')
        try:
            return parse_iso(value.strip())
        except ValueError:
            raise self.fail(f'"{key}" is {value!r}, not an ISO-8601 date') from None

    def type(self, key: str = "type") -> str | None:
        return self.choice(key, MEMORY_TYPES, None)

    def source(self, key: str = "source", default: str = "agent-inferred") -> str:
        return str(self.choice(key, SOURCES, default))

    def status(self, key: str = "status") -> str:
        return str(self.choice(key, ("active", "superseded"), "active"))

    def client(self, key: str = "client") -> ClientInfo | None:
        value = self.raw.get(key)
        if value is None:
            return None
        if not isinstance(value, dict) or not isinstance(value.get("name"), str) \
                or not value["name"].strip():
            raise self.fail(f'"{key}" must be an object with a non-empty "name"')
        version = value.get("version")
        return ClientInfo(name=value["name"].strip(),
                          version=version if isinstance(version, str) and version else None)


# ---- dates as people write them ------------------------------------------------------------

MONTHS = {name: index for index, names in enumerate((
    ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",),
    ("jun", "june"), ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"),
    ("oct", "october"), ("nov", "november"), ("dec", "december")), start=1) for name in names}
_MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|" \
         r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
ISO_DATE = r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
DATE = (rf"(?:{ISO_DATE}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|"
        rf"\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+\d{{4}}|\d{{1,2}}/\d{{1,2}}/\d{{4}})")
_WORDY = re.compile(rf"^(?:(?P<m1>{_MONTH})\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?,?|"
                    rf"(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<m2>{_MONTH}),?)\s+(?P<y>\d{{4}})$",
                    re.IGNORECASE)
_SLASHED = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")


def parse_date(value: str) -> datetime | None:
    """A date written as ISO-8601, "March 2, 2024", "2 March 2024" or an unambiguous
    D/M/YYYY or M/D/YYYY; None when it cannot be read or could mean two days."""
    value = value.strip()
    try:
        if re.fullmatch(ISO_DATE, value):
            return parse_iso(value.replace(" ", "T", 1))
    except ValueError:
        return None
    wordy = _WORDY.match(value)
    try:
        if wordy:
            month = MONTHS[(wordy["m1"] or wordy["m2"]).lower().rstrip(".")]
            return datetime(int(wordy["y"]), month, int(wordy["d1"] or wordy["d2"]), tzinfo=UTC)
        slashed = _SLASHED.match(value)
        if slashed:
            first, second, year = (int(part) for part in slashed.groups())
            if first > 12 >= second:
                return datetime(year, second, first, tzinfo=UTC)
            if second > 12 >= first:
                return datetime(year, first, second, tzinfo=UTC)
            if first == second:
                return datetime(year, first, first, tzinfo=UTC)
    except (KeyError, ValueError):
        return None
    return None


def epoch_or_iso(value: Any) -> datetime | None:
    """A timestamp from JSON: epoch seconds (or milliseconds), or a date string."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        seconds = value / 1000 if value >= 1e12 else value
        try:
            return datetime.fromtimestamp(seconds, UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str):
        try:
            return parse_iso(value.strip())
        except ValueError:
            return parse_date(value)
    return None


def file_time(path: Path) -> datetime:
    """When a file was last written: the latest a fact in it can have been known."""
    return datetime.fromtimestamp(path.stat().st_mtime, UTC).replace(microsecond=0)


# ---- the conservative type guess ------------------------------------------------------------

_IDENTITY = re.compile(
    r"\b(?:name is|named|goes by|go by|call me|lives? in|living in|based in|resides?|"
    r"works? (?:as|at|for)|is an? |i am an? |i'm an? |pronouns?|speaks?|nationality|"
    r"born in|birthday)\b", re.IGNORECASE)
_PREFERENCE = re.compile(
    r"\b(?:prefers?|preferred|likes?|dislikes?|loves?|hates?|favou?rite|enjoys?|wants?|"
    r"avoids?|instead of|always|never)\b", re.IGNORECASE)


def guess_type(text: str) -> str | None:
    """`identity` or `preference` when the wording is obvious, else None (untyped)."""
    if _IDENTITY.search(text):
        return "identity"
    if _PREFERENCE.search(text):
        return "preference"
    return None
