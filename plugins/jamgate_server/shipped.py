"""The opening replies shipped with the package, for a client's first start (issue 21, D-225).

The user's reply cache (`reply_cache.py`) helps from a client's second start on. For the first
— a new install, a new client, an upgrade — `opening_replies.json` beside this module holds
what the SDK answered to the openings of every protocol version it speaks (both eras), with
the built-in plugins and no configuration, made by `scripts/make_opening_replies.py`. They are
keyed by the opening's normal form (`reply_cache.OpeningDigest`: no ids, and the client's
identity and capabilities as placeholders where they are plain), so any client that opens
that way is answered.

They are used only when they are certainly this installation's:
- the file's digest equals the digest of what the replies depend on and every machine shares:
  Jamgate's version, the versions of mcp, mcp-types, pydantic and pydantic-core, the
  `jamgate.plugins` entry points (all of them Jamgate's own), and the content of the source
  files that shape the replies (`SHAPING_FILES`);
- no `jamgate.toml` is in the home, and no `JAMGATE_*` variable is set but the home, the log
  level and an embedder that is none or built in (`_harmless`);
otherwise nothing changes. The check reads a few small files, once, on the first request the
user's cache cannot answer.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jamgate_server.reply_cache import Body, sdk_versions

if TYPE_CHECKING:
    from jamgate_core.loader import PluginInfo

_log = logging.getLogger(__name__)

FORMAT = 1
FILE = Path(__file__).with_name("opening_replies.json")
SCRIPT = "scripts/make_opening_replies.py"
# The sources whose content shapes the replies (tools, schemas, resources, instructions, the
# server's identity, the key), relative to the folder holding jamgate_core and jamgate_server.
SHAPING_FILES = ("jamgate_server/mcp.py", "jamgate_server/profile.py",
                 "jamgate_server/reply_cache.py", "jamgate_core/models.py",
                 "jamgate_core/version.py")
_ALWAYS_HARMLESS = frozenset({"JAMGATE_HOME", "JAMGATE_LOG_LEVEL", "JAMGATE_EMBEDDINGS"})
_EMBEDDER_VARIABLE = "JAMGATE_EMBEDDER"


def digest(plugins: Iterable[PluginInfo]) -> str | None:
    """The digest of everything the shipped replies depend on; None when a `jamgate.plugins`
    entry point is not Jamgate's own (a plugin may add tools)."""
    import jamgate_core
    import jamgate_server
    from jamgate_core import __version__

    parts = [f"jamgate {__version__}", *sdk_versions()]
    for plugin in sorted(plugins, key=lambda p: (p.name, p.target)):
        if not plugin.builtin:
            return None
        parts.append(f"plugin {plugin.name}={plugin.target}")
    roots = {"jamgate_core": Path(jamgate_core.__file__ or "").parent,
             "jamgate_server": Path(jamgate_server.__file__ or "").parent}
    for name in SHAPING_FILES:
        package, _, rest = name.partition("/")
        try:
            content = (roots[package] / rest).read_bytes()
        except OSError:
            return None
        parts.append(f"file {name} {hashlib.sha256(content).hexdigest()}")
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def installed_versions() -> dict[str, str]:
    """Jamgate's version and the SDK's distributions' (the file's `made_with`)."""
    from jamgate_core import __version__

    versions = {"jamgate": __version__}
    for entry in sdk_versions():
        name, _, version = entry.partition(" ")
        versions[name] = version
    return versions


def made_with_these_versions(path: Path = FILE) -> bool:
    """Whether the file was made with the Jamgate, SDK and pydantic versions installed here
    (with others its digest cannot match: the replies are not used, and the first start waits
    for the SDK as before; a release makes the file again with `SCRIPT`)."""
    import importlib.metadata as md

    try:
        made = json.loads(path.read_text(encoding="utf-8"))["made_with"]
        return bool(made == installed_versions())
    except (OSError, ValueError, KeyError, TypeError, md.PackageNotFoundError):
        return False


def refusal(environ: Mapping[str, str], config_file: Path,
            builtin_embedders: Iterable[str]) -> str | None:
    """Why the shipped replies may not serve this start (the configuration), or None."""
    if config_file.exists():
        return f"{config_file} exists"
    embedders = {"", "auto", "none", *builtin_embedders}
    for name, value in environ.items():
        upper = name.upper()
        if not upper.startswith("JAMGATE_") or upper in _ALWAYS_HARMLESS:
            continue
        if upper == _EMBEDDER_VARIABLE and value.strip().lower() in embedders:
            continue
        return f"{upper} is set"
    return None


class ShippedReplies:
    """The shipped replies, read and checked on the first `get`."""

    def __init__(self, plugins: list[PluginInfo], path: Path = FILE) -> None:
        self._plugins = plugins
        self._path = path
        self._replies: dict[str, Body] | None = None

    def get(self, key: str) -> Body | None:
        if self._replies is None:
            self._replies = self._load()
        return self._replies.get(key)

    def _load(self) -> dict[str, Body]:
        try:
            document = json.loads(self._path.read_text(encoding="utf-8"))
            if document.get("format") != FORMAT:
                raise ValueError("unknown format")
            if document.get("digest") != digest(self._plugins):
                _log.debug(f"the shipped opening replies ({self._path}) are not this "
                           "installation's (another version, plugin or source): not used")
                return {}
            bodies: list[Any] = document["bodies"]
            return {key: bodies[index] for key, index in document["replies"].items()}
        except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            _log.debug(f"the shipped opening replies ({self._path}) not read: {exc}")
            return {}


def open_shipped(config_file: Path, plugins: list[PluginInfo],
                 embedders: list[PluginInfo]) -> ShippedReplies | None:
    """The shipped replies for this start, or None when the configuration may change them."""
    reason = refusal(os.environ, config_file,
                     [embedder.name for embedder in embedders if embedder.builtin])
    if reason is not None:
        _log.debug(f"the shipped opening replies are not used: {reason}")
        return None
    return ShippedReplies(plugins)
