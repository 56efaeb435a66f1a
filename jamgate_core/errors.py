"""Every error Jamgate raises on purpose. Each message says what happened and what to do.

```
JamgateError
├── ConfigError                 bad settings or an unsafe stage list      → startup exit 2
├── PluginError                 a plugin could not be loaded              → startup exit 2
│   ├── PluginNotFound          a configured name has no entry point
│   ├── PluginLoadError         its import failed (often a missing extra)
│   ├── PluginConflict          two distributions register one name
│   └── PluginContractError     the object does not satisfy its contract
├── InvalidArgument             a malformed tool call                      → tool error / HTTP 400
├── NotFound                    no memory with that id in the scope        → tool error / HTTP 404
├── Ambiguous                   an id prefix names several memories        → tool error / HTTP 409
└── StoreError                  the store cannot do what was asked         → tool error
    ├── StoreCorrupt            unreadable data; it is left byte-identical
    ├── StoreTooNew             written by a newer Jamgate
    ├── StoreUnavailable        locked, read-only, full, timed out
    └── PreconditionFailed      the snapshot changed under a decision      → the pipeline re-runs
```
"""

from __future__ import annotations


class JamgateError(Exception):
    """Base of every error Jamgate raises on purpose."""


class ConfigError(JamgateError):
    """The settings cannot be used as they are."""


class PluginError(JamgateError):
    """A configured plugin could not be loaded; nothing starts."""

    def __init__(self, group: str, name: str, problem: str, remedy: str,
                 distributions: tuple[str, ...] = ()) -> None:
        self.group, self.name, self.distributions = group, name, distributions
        where = f" (from {', '.join(distributions)})" if distributions else ""
        super().__init__(f"{group} plugin {name!r}{where}: {problem}. {remedy}")


class PluginNotFound(PluginError):
    pass


class PluginLoadError(PluginError):
    pass


class PluginConflict(PluginError):
    pass


class PluginContractError(PluginError):
    pass


class InvalidArgument(JamgateError):
    """A tool call is malformed. A usage error, not a verdict: nothing is judged or logged."""


class NotFound(JamgateError):
    pass


class Ambiguous(JamgateError):
    def __init__(self, message: str, matches: list[str]) -> None:
        super().__init__(message)
        self.matches = matches


class StoreError(JamgateError):
    """The store cannot do what was asked; nothing was changed."""


class StoreCorrupt(StoreError):
    pass


class StoreTooNew(StoreError):
    pass


class StoreUnavailable(StoreError):
    pass


class PreconditionFailed(StoreError):
    """What a decision was based on changed before it could be written."""
