"""The stdio server's start-up replies, as the SDK gave them to an earlier run (issue 21).

An MCP client opens every session with the same few messages (`initialize`, `tools/list`, or
the newer `server/discover`), and their answers depend only on the code, the installed
plugins and the configuration. Each answer the SDK wrote is stored under a digest of the
messages of the session up to and including its request (ids left out), so the front end
(`early.py`) can replay it to a client that opens the same way while the SDK is still being
imported. Nothing here is re-derived: a reply is served only for exactly the message sequence
it answered.

The replies are grouped by a fingerprint of everything that could change them: Jamgate's and
the SDK's versions, the Python version, Jamgate's server and core sources (size and mtime),
the `jamgate.plugins` entry points, the `JAMGATE_*` variables (only the names of those that may
hold a secret) and the settings file's size and mtime. A set of another fingerprint is never
used. The file is `<user cache>/jamgate/stdio-replies.json`; one that cannot be read is
ignored and replaced by the next write. It holds no secret: tool lists, instructions and
the server's identity.

A client's first start finds nothing here; the replies shipped with the package answer it
(`shipped.py`). They are keyed by the opening's normal form (`OpeningDigest`, D-226): each
message with its id 0 and empty params left out, a plain client identity and plain
capabilities (`plain_client_info`, `plain_capabilities`: forms every protocol version's model
accepts unchanged) replaced by placeholders, and the stateless requests after the session's
first left out of the key of what follows them. The SDK's replies to an opening depend on
none of these (the handshake answers from the proposed version alone; the 2026 era's
`server/discover` and the listings from the version alone); the tests drive the SDK to show
it. A correction of a shipped reply is kept here under `early.CORRECTED` and the normal form.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

_log = logging.getLogger(__name__)

FORMAT = 1
FILE_NAME = "stdio-replies.json"
MAX_SETS = 4  # fingerprints kept (a few configurations used in turn)
MAX_REPLIES = 32  # replies kept per fingerprint, oldest dropped first
STALE_SECONDS = 60  # a temporary file older than this was left by a killed writer
# Requests whose answer depends only on the session so far and the fingerprint. Keep to
# listings that never show the store's contents.
CACHEABLE = frozenset({"initialize", "tools/list", "server/discover", "resources/list",
                       "resources/templates/list", "prompts/list", "ping"})
_SDK_DISTRIBUTIONS = ("mcp", "mcp-types", "pydantic", "pydantic-core")
_SECRET_WORDS = ("TOKEN", "KEY", "SECRET", "PASSWORD", "OPTIONS")
_NOT_AFFECTING = ("JAMGATE_HOME", "JAMGATE_LOG_LEVEL")

Body = dict[str, Any]  # a reply without "jsonrpc" and "id": {"result": …} or {"error": …}


def cache_dir() -> Path:
    """The user's cache folder for Jamgate (XDG on Linux, ~/Library/Caches, %LOCALAPPDATA%)."""
    if sys.platform == "win32":  # pragma: no cover
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":  # pragma: no cover
        base = str(Path.home() / "Library" / "Caches")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "jamgate"


def fingerprint(config_file: Path, plugins: list[str]) -> str:
    """A digest of everything the start-up replies depend on (see the module docstring)."""
    from jamgate_core import __version__

    parts = [f"jamgate {__version__}", f"python {sys.version}", *sdk_versions()]
    for folder in _source_folders():
        with os.scandir(folder) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.name.endswith(".py"):
                    stat = entry.stat()
                    parts.append(f"{entry.path} {stat.st_size} {stat.st_mtime_ns}")
    parts.extend(f"plugin {plugin}" for plugin in sorted(plugins))
    for name in sorted(os.environ):
        upper = name.upper()
        if upper.startswith("JAMGATE_") and upper not in _NOT_AFFECTING:
            secret = any(word in upper for word in _SECRET_WORDS)
            parts.append(f"env {upper}" + ("" if secret else f"={os.environ[name]}"))
    try:
        stat = config_file.stat()
        parts.append(f"config {stat.st_size} {stat.st_mtime_ns}")
    except OSError:
        parts.append("config absent")
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


@functools.cache
def sdk_versions() -> tuple[str, ...]:
    """The installed versions of the SDK's distributions, one "name version" each."""
    import importlib.metadata as md

    versions = []
    for name in _SDK_DISTRIBUTIONS:
        try:
            versions.append(f"{name} {md.version(name)}")
        except md.PackageNotFoundError:
            versions.append(f"{name} absent")
    return tuple(versions)


def _source_folders() -> list[Path]:
    import jamgate_core
    import jamgate_server

    return [Path(module.__file__ or "").parent for module in (jamgate_core, jamgate_server)]


class ReplyCache:
    """The stored replies of one fingerprint, read once at start and written when a run
    learned a new or corrected reply."""

    def __init__(self, path: Path, fingerprint: str) -> None:
        self.path = path
        self.fingerprint = fingerprint
        self._sets = self._read()
        self.replies: dict[str, Body] = self._sets.pop(fingerprint, {})
        self.dirty = False

    def get(self, key: str) -> Body | None:
        return self.replies.get(key)

    def put(self, key: str, body: Body) -> None:
        if self.replies.get(key) != body:
            self.replies.pop(key, None)
            self.replies[key] = body
            while len(self.replies) > MAX_REPLIES:
                del self.replies[next(iter(self.replies))]
            self.dirty = True

    def save(self) -> None:
        """Write the file atomically (0600 in a 0700 folder); a failure is only logged."""
        if not self.dirty:
            return
        from jamgate_core.files import PRIVATE_FILE_MODE, make_private_dir, open_private

        sets = dict(list(self._sets.items())[-(MAX_SETS - 1):])
        sets[self.fingerprint] = self.replies
        document = {"format": FORMAT, "sets": [
            {"fingerprint": key, "replies": replies} for key, replies in sets.items()]}
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            make_private_dir(self.path.parent)
            self._remove_stale_temporaries()
            fd = open_private(temporary, os.O_WRONLY | os.O_TRUNC)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(document, out, ensure_ascii=False, separators=(",", ":"))
            os.chmod(temporary, PRIVATE_FILE_MODE)
            os.replace(temporary, self.path)
            self.dirty = False
        except OSError as exc:
            _log.debug(f"start-up replies not saved to {self.path}: {exc}")
            with contextlib.suppress(OSError):
                temporary.unlink()

    def _remove_stale_temporaries(self) -> None:
        """Temporary files of writers killed before their rename."""
        import time

        for leftover in self.path.parent.glob(f".{self.path.name}.*.tmp"):
            with contextlib.suppress(OSError):
                if time.time() - leftover.stat().st_mtime > STALE_SECONDS:
                    leftover.unlink()

    def _read(self) -> dict[str, dict[str, Body]]:
        """Every fingerprint's replies in the file, oldest first; {} when absent or unusable."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError) as exc:
            _log.debug(f"start-up replies in {self.path} not read: {exc}")
            return {}
        try:
            document = json.loads(text)
            return _valid_sets(document)
        except (ValueError, TypeError, KeyError, RecursionError) as exc:
            _log.warning(f"{self.path} is not a start-up reply cache ({exc}); it is ignored "
                         "and will be replaced")
            return {}


def _valid_sets(document: Any) -> dict[str, dict[str, Body]]:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError("unknown format")
    sets: dict[str, dict[str, Body]] = {}
    for entry in document["sets"]:
        replies = entry["replies"]
        if not isinstance(entry["fingerprint"], str) or not isinstance(replies, dict):
            raise ValueError("a set without a fingerprint or replies")
        for body in replies.values():
            if not (isinstance(body, dict) and len(body) == 1
                    and isinstance(body.get("result", body.get("error")), dict)):
                raise ValueError("a reply that is neither a result nor an error")
        sets[entry["fingerprint"]] = replies
    return sets


class SessionDigest:
    """The running digest of a session's messages, ids left out: the key of the reply to the
    latest request."""

    def __init__(self) -> None:
        self._digest = hashlib.sha256()

    def add(self, message: dict[str, Any]) -> str | None:
        """Fold in one message; its key, or None when it has text no reply can be keyed by
        (a lone surrogate)."""
        canonical = dict(message)
        if "id" in canonical:
            canonical["id"] = 0
        try:
            text = json.dumps(canonical, ensure_ascii=False, sort_keys=True,
                              separators=(",", ":")).encode("utf-8")
        except (UnicodeEncodeError, ValueError, RecursionError):
            return None
        self._digest.update(text + b"\n")
        return self._digest.copy().hexdigest()


# ---- the opening's normal form: the key of the replies shipped with the package (D-225) ------

# Requests that change nothing in the SDK's session: after the session's first request (which
# decides the protocol era) they are left out of the key of the requests that follow them.
STATELESS = CACHEABLE - {"initialize"}
CLIENT_INFO = "<client info>"  # stands for a client's identity the SDK accepts
CLIENT_CAPABILITIES = "<client capabilities>"  # and for its capabilities
_ENVELOPE_VERSION = "io.modelcontextprotocol/protocolVersion"
_ENVELOPE_INFO = "io.modelcontextprotocol/clientInfo"
_ENVELOPE_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
_INFO_FIELDS = frozenset({"name", "version", "title", "description", "websiteUrl"})
_EMPTY_FLAGS = {"sampling": frozenset({"context", "tools"}),
                "elicitation": frozenset({"form", "url"})}


def plain_client_info(value: Any) -> bool:
    """A client identity every protocol version's model accepts as it is: a name and a version,
    and at most a title, a description and a website, all strings."""
    return (isinstance(value, dict) and {"name", "version"} <= value.keys() <= _INFO_FIELDS
            and all(isinstance(text, str) for text in value.values()))


def plain_capabilities(value: Any) -> bool:
    """Client capabilities every protocol version's model accepts as they are: roots (with at
    most a boolean listChanged), sampling and elicitation (with empty flags only),
    experimental and extensions (objects of objects). Anything else keeps the exact key."""
    if not isinstance(value, dict):
        return False
    for name, entry in value.items():
        if not isinstance(entry, dict):
            return False
        if name == "roots":
            if not (entry.keys() <= {"listChanged"}
                    and all(isinstance(flag, bool) for flag in entry.values())):
                return False
        elif name in _EMPTY_FLAGS:
            if not (entry.keys() <= _EMPTY_FLAGS[name] and all(v == {} for v in entry.values())):
                return False
        elif name in ("experimental", "extensions"):
            if not all(isinstance(settings, dict) for settings in entry.values()):
                return False
        else:
            return False
    return True


def normal_form(message: dict[str, Any]) -> dict[str, Any]:
    """A message as the shipped replies are keyed: its id 0, empty params left out, and the
    client's identity and capabilities replaced by placeholders where they are plain (the
    SDK's replies to the opening do not depend on them, D-226)."""
    canonical = dict(message)
    if "id" in canonical:
        canonical["id"] = 0
    params = canonical.get("params")
    if params == {}:
        del canonical["params"]
        return canonical
    if not isinstance(params, dict):
        return canonical
    params = dict(params)
    if canonical.get("method") == "initialize":
        if plain_client_info(params.get("clientInfo")):
            params["clientInfo"] = CLIENT_INFO
        if plain_capabilities(params.get("capabilities")):
            params["capabilities"] = CLIENT_CAPABILITIES
    meta = params.get("_meta")
    if isinstance(meta, dict) and _ENVELOPE_VERSION in meta:
        meta = dict(meta)
        if plain_client_info(meta.get(_ENVELOPE_INFO)):
            meta[_ENVELOPE_INFO] = CLIENT_INFO
        if plain_capabilities(meta.get(_ENVELOPE_CAPABILITIES)):
            meta[_ENVELOPE_CAPABILITIES] = CLIENT_CAPABILITIES
        params["_meta"] = meta
    canonical["params"] = params
    return canonical


class OpeningDigest:
    """The running digest of a session's messages in normal form, with the stateless requests
    after the first left out of what follows them: the key of a shipped reply."""

    def __init__(self) -> None:
        self._digest = hashlib.sha256()
        self._requests = 0

    def add(self, message: dict[str, Any]) -> str | None:
        try:
            text = json.dumps(normal_form(message), ensure_ascii=False, sort_keys=True,
                              separators=(",", ":")).encode("utf-8")
        except (UnicodeEncodeError, ValueError, RecursionError):
            return None
        if "id" in message:
            self._requests += 1
            if self._requests > 1 and message.get("method") in STATELESS:
                digest = self._digest.copy()
                digest.update(text + b"\n")
                return digest.hexdigest()
        self._digest.update(text + b"\n")
        return self._digest.copy().hexdigest()
