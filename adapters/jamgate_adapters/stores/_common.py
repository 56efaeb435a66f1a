"""Pure helpers shared by the built-in stores. Other adapters may import these names; they are
kept stable.

- `encode_cursor` / `decode_cursor`: the opaque keyset cursor of `Store.list`.
- `listed(record, status, type, now)`: whether a record belongs to a `list` status filter.
- `newest_first(records)`, `ranked(scored)`: the orderings every store uses.
- `fold`, `words`, `index_terms`, `query_terms`, `lexical_score`: a small lexical scorer
  (diacritic folding, CJK bigrams) for stores without a keyword index.
- `cjk_grams(text)`, `script_runs(word)`: CJK segmentation for keyword indexes.
- `cosine`, `blend`: vector similarity and the lexical/semantic blend.
- `invariant_problems(records)`: the uniqueness invariants of active records.
"""

from __future__ import annotations

import base64
import binascii
import math
import operator
import re
import unicodedata
from collections.abc import Iterable, Sequence
from datetime import datetime

from jamgate_core.errors import InvalidArgument
from jamgate_core.models import MemoryRecord, iso, parse_iso

LEXICAL_WEIGHT = 0.7
SEMANTIC_WEIGHT = 0.3
# A record qualifies on meaning alone when its cosine reaches this (lexical score zero).
SEMANTIC_MIN = 0.35

STOPWORDS: frozenset[str] = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "do", "does", "for", "from", "has", "have",
    "how", "i", "in", "is", "it", "its", "me", "my", "of", "on", "or", "so", "that", "the",
    "their", "them", "they", "this", "to", "was", "were", "what", "when", "where", "which",
    "who", "why", "with", "you", "your",
})

_WORD = re.compile(r"[^\W_]+")
_CURSOR_PREFIX = "c1:"


# --- cursors ---------------------------------------------------------------------------------

def encode_cursor(created_at: datetime, record_id: str) -> str:
    """An opaque cursor naming the last row of a page: its (created_at, id)."""
    raw = f"{_CURSOR_PREFIX}{iso(created_at)}|{record_id}".encode()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor: str) -> tuple[str, str]:
    """The (iso created_at, id) a cursor names; InvalidArgument when it is not one of ours."""
    problem = InvalidArgument(
        f"cursor {cursor[:40]!r} is not one this store issued; pass next_cursor from the "
        "previous page unchanged, or omit it to start from the newest"
    )
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        raw = base64.urlsafe_b64decode(padded.encode("ascii")).decode("utf-8")
    except (UnicodeError, ValueError, binascii.Error) as exc:
        raise problem from exc
    if not raw.startswith(_CURSOR_PREFIX) or "|" not in raw:
        raise problem
    stamp, _, record_id = raw[len(_CURSOR_PREFIX):].partition("|")
    try:
        canonical = iso(parse_iso(stamp))
    except ValueError as exc:
        raise problem from exc
    if canonical != stamp or not record_id:
        raise problem
    return stamp, record_id


# --- filters and orderings -------------------------------------------------------------------

def listed(record: MemoryRecord, status: str, type: str | None, now: datetime) -> bool:
    """Whether `record` belongs to a `list` page for `status` (active|superseded|expired|all)."""
    if type is not None and record.type != type:
        return False
    if status == "all":
        return True
    if status == "superseded":
        return record.status == "superseded"
    if status == "expired":
        return record.status == "active" and record.is_expired(now)
    if status == "active":
        return record.is_live(now)
    raise InvalidArgument(
        f"unknown status {status!r}; use one of active, superseded, expired, all"
    )


def newest_first(records: Iterable[MemoryRecord]) -> list[MemoryRecord]:
    """Records by created_at descending, ties by id descending."""
    return sorted(records, key=lambda r: (iso(r.created_at), r.id), reverse=True)


def ranked(scored: Iterable[tuple[MemoryRecord, float]]) -> list[tuple[MemoryRecord, float]]:
    """Hits best first: score descending, then newest, then id descending."""
    by_recency = sorted(scored, key=lambda hit: (iso(hit[0].created_at), hit[0].id), reverse=True)
    return sorted(by_recency, key=lambda hit: -hit[1])


# --- lexical scoring -------------------------------------------------------------------------

def fold(text: str) -> str:
    """Case- and diacritic-folded text: `Café Müller` → `cafe muller`."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", stripped).casefold()


def is_cjk(ch: str) -> bool:
    """Han, Hiragana or Katakana: scripts written without spaces between words."""
    code = ord(ch)
    return (
        0x3040 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF or 0x3400 <= code <= 0x4DBF
        or 0x4E00 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0xFF66 <= code <= 0xFF9F
        or 0x20000 <= code <= 0x3FFFF
    )


def script_runs(word: str) -> list[tuple[bool, str]]:
    """A word split into maximal CJK and non-CJK runs."""
    runs: list[tuple[bool, str]] = []
    for ch in word:
        cjk = is_cjk(ch)
        if runs and runs[-1][0] == cjk:
            runs[-1] = (cjk, runs[-1][1] + ch)
        else:
            runs.append((cjk, ch))
    return runs


def words(text: str) -> list[str]:
    """Folded runs of letters and digits, in order."""
    return _WORD.findall(fold(text))


def cjk_grams(text: str) -> tuple[list[str], list[str]]:
    """The text as a keyword index sees CJK: (grams, chars).

    `grams`: for each word holding CJK, its non-CJK runs whole and each CJK run as its
    overlapping bigrams followed by its last character, so a phrase of consecutive bigrams
    matches exactly the 2+ character substrings of a run. `chars`: every CJK character.
    """
    grams: list[str] = []
    chars: list[str] = []
    for word in words(text):
        if not any(is_cjk(ch) for ch in word):
            continue
        for cjk, run in script_runs(word):
            if not cjk:
                grams.append(run)
                continue
            grams += [run[i:i + 2] for i in range(len(run) - 1)]
            grams.append(run[-1])
            chars += list(run)
    return grams, chars


def index_terms(text: str) -> set[str]:
    """Every term a text can be found by: its words, their non-CJK runs, CJK bigrams and chars."""
    terms: set[str] = set()
    for word in words(text):
        terms.add(word)
        for cjk, run in script_runs(word):
            if cjk:
                terms.update(run)
                terms.update(run[i:i + 2] for i in range(len(run) - 1))
            else:
                terms.add(run)
    return terms


def query_terms(query: str) -> list[str]:
    """The terms a query looks for: stopwords dropped (unless nothing else is left), each CJK
    run as its bigrams (one character alone stays a character)."""
    found = words(query)
    content = [w for w in found if w not in STOPWORDS] or found
    terms: list[str] = []
    for word in content:
        for cjk, run in script_runs(word):
            if cjk and len(run) > 1:
                terms += [run[i:i + 2] for i in range(len(run) - 1)]
            else:
                terms.append(run)
    return list(dict.fromkeys(terms))


def subject_text(subject: str | None) -> str:
    """A canonical subject as words: `current-project` → `current project`."""
    return re.sub(r"[-_/]+", " ", subject or "").strip()


def lexical_score(terms: Sequence[str], record: MemoryRecord) -> float:
    """Share of the query's terms (weighted by length) found in the record's text or subject."""
    if not terms:
        return 0.0
    have = index_terms(f"{record.text} {subject_text(record.subject)}")
    total = sum(len(t) for t in terms)
    return sum(len(t) for t in terms if t in have) / total


# --- vectors ---------------------------------------------------------------------------------

def norm(vector: Sequence[float]) -> float:
    return math.sqrt(math.fsum(x * x for x in vector))


def cosine(a: Sequence[float], b: Sequence[float], a_norm: float | None = None,
           b_norm: float | None = None) -> float:
    """Cosine similarity; 0 for empty or zero vectors and for a length mismatch."""
    if not a or len(a) != len(b):
        return 0.0
    na = norm(a) if a_norm is None else a_norm
    nb = norm(b) if b_norm is None else b_norm
    if na == 0 or nb == 0:
        return 0.0
    similarity = sum(map(operator.mul, a, b)) / (na * nb)
    return min(max(similarity, -1.0), 1.0)


def blend(lexical: float, semantic: float) -> float:
    """The recall score when the query has a vector: 0.7 lexical + 0.3 cosine, both clamped."""
    clamp = lambda x: min(max(x, 0.0), 1.0)  # noqa: E731
    return LEXICAL_WEIGHT * clamp(lexical) + SEMANTIC_WEIGHT * clamp(semantic)


# --- invariants ------------------------------------------------------------------------------

def invariant_problems(records: Iterable[MemoryRecord]) -> list[str]:
    """Active records sharing a (scope, text key) or a (scope, subject)."""
    keys: dict[tuple[str, str], list[str]] = {}
    subjects: dict[tuple[str, str], list[str]] = {}
    for record in records:
        if record.status != "active":
            continue
        keys.setdefault((record.scope, record.key), []).append(record.id)
        if record.subject is not None:
            subjects.setdefault((record.scope, record.subject), []).append(record.id)
    problems = [
        f"scope {scope!r}: {len(ids)} active records share one text key ({', '.join(sorted(ids))})"
        for (scope, _), ids in keys.items() if len(ids) > 1
    ]
    problems += [
        f"scope {scope!r}: {len(ids)} active records share subject {subject!r} "
        f"({', '.join(sorted(ids))})"
        for (scope, subject), ids in subjects.items() if len(ids) > 1
    ]
    return problems
