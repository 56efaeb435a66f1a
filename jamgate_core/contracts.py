"""The contracts a plugin satisfies, checked when it is loaded.

- `Stage`: one judgement of the gate (`jamgate.stages`; `jamgate_core.stage` has its context).
- `Store`: where memories live (`jamgate.stores`), synchronous, answering only the questions
  the gate and the tools ask, so no operation reads the whole store.
- `Embedder`: text to vectors (`jamgate.embedders`).

Decide-and-write is optimistic. The pipeline reads through a `StoreView`, which records every
set it saw as a `Preconditions`; the store then performs `write(plan, preconditions)` and raises
`PreconditionFailed` when a recorded set no longer holds, and the pipeline re-runs.
"""

from __future__ import annotations

import builtins
from argparse import ArgumentParser
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, runtime_checkable

from pydantic import BaseModel

from jamgate_core.models import Candidate, MemoryRecord, Page, Source, StageResult

if TYPE_CHECKING:
    from jamgate_core.settings import Settings

# Capabilities a store may declare. One it lacks is reported by `jamgate doctor`.
KEYWORD_SEARCH = "keyword_search"
VECTOR_SEARCH = "vector_search"
CROSS_PROCESS = "cross_process"
DURABLE = "durable"
# Every call is bounded by the store itself (a local file or in-process): no timeout wrapper.
LOCAL = "local"
STORE_CAPABILITIES = (KEYWORD_SEARCH, VECTOR_SEARCH, CROSS_PROCESS, DURABLE, LOCAL)

EmbedKind = Literal["query", "passage"]


@dataclass(frozen=True)
class Preconditions:
    """What must still be true for a write to go ahead.

    `by_key` maps a text key to the ids of the active records that had it; `by_subject` maps a
    canonical subject to the ids of its active records (expired ones included). Both are exact
    sets, all within `scope`.
    """

    scope: str
    by_key: dict[str, frozenset[str]] = field(default_factory=dict)
    by_subject: dict[str, frozenset[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class WritePlan:
    """The changes one decision makes, applied atomically.

    `insert` is stored (active, or superseded history); each id in `retire` is marked
    superseded by `insert` at `now`; `upgrade_source` raises one record's source.
    """

    scope: str
    now: datetime
    insert: MemoryRecord | None = None
    retire: tuple[str, ...] = ()
    upgrade_source: tuple[str, Source] | None = None

    @property
    def empty(self) -> bool:
        return self.insert is None and not self.retire and self.upgrade_source is None


@runtime_checkable
class Stage(Protocol):
    """One judgement of the gate (the `jamgate.stages` contract, checked at load). `ctx` is a
    `jamgate_core.stage.StageContext`; `jamgate_core.stage` re-exports this protocol."""

    name: ClassVar[str]
    requires: ClassVar[frozenset[str]]

    @property
    def Options(self) -> type[BaseModel]:
        """The stage's options model, validated from `[stage_options.<name>]`."""

    def evaluate(self, candidate: Candidate, ctx: Any) -> StageResult: ...


@runtime_checkable
class Store(Protocol):
    """Where memories live. Every method is synchronous and confined to one scope."""

    capabilities: frozenset[str]

    def open(self) -> None:
        """Open or create the store; refuse (StoreCorrupt, StoreTooNew) rather than overwrite.

        A store that needs the configured embedder defines `bind_embedder(embedder)` (called
        before `open`, with None when there is none) and may set `requires_embedder = True`
        to refuse starting without one."""

    def close(self) -> None: ...

    def location(self) -> str:
        """Where the data lives, for messages and `jamgate status`."""

    def by_text_key(self, scope: str, key: str) -> list[MemoryRecord]:
        """Active records (expired ones included) whose text key is `key`."""

    def by_subject(self, scope: str, subject: str) -> list[MemoryRecord]:
        """Active records (expired ones included) whose canonical subject is `subject`."""

    def get(self, scope: str, record_id: str) -> MemoryRecord | None: ...

    def resolve_id(self, scope: str, needle: str) -> list[str]:
        """Ids equal to `needle`, else (for 8+ characters) the ids it prefixes."""

    def search(
        self, scope: str, query: str, *, limit: int, type: str | None, now: datetime,
        vector: list[float] | None = None,
    ) -> list[tuple[MemoryRecord, float]]:
        """Live records relevant to `query`, best first; an empty query lists the newest."""

    def nearest(
        self, scope: str, vector: list[float], *, limit: int, now: datetime
    ) -> list[tuple[MemoryRecord, float]]:
        """Live records with vectors, by cosine similarity, best first."""

    def list(
        self, scope: str, *, status: str, type: str | None, limit: int, cursor: str | None,
        now: datetime,
    ) -> Page: ...

    def write(self, plan: WritePlan, preconditions: Preconditions) -> None:
        """Apply `plan` atomically if `preconditions` hold, else raise PreconditionFailed."""

    def write_many(self, plans: Sequence[WritePlan],
                   preconditions: Sequence[Preconditions]) -> None:
        """One atomic batch (an import): check every precondition, then apply the plans in
        order (a later plan may retire a record an earlier one inserted); all or nothing."""

    def delete(self, scope: str, record_id: str) -> MemoryRecord | None:
        """Remove a record and everything derived from it; return it, or None."""

    def compact(self, cutoff: datetime) -> int:
        """Physically remove active records that expired at or before `cutoff` (their grace
        period is over), with everything derived from them; return how many went."""

    def integrity_check(self) -> builtins.list[str]:
        """Problems found in the stored data; empty when healthy."""

    def scopes(self) -> builtins.list[str]:
        """Every scope holding at least one record (any status), sorted: what `jamgate
        export` and `jamgate audit` walk. A scope whose last record was deleted is gone."""


@runtime_checkable
class Reindexable(Protocol):
    """A store whose vectors `jamgate reindex` can fill in (all three bundled stores).

    A separate protocol, so a store without it still loads: reindex then says it cannot.
    """

    def missing_vectors(self, model_id: str, limit: int) -> builtins.list[MemoryRecord]:
        """Up to `limit` active records, in any scope, that lack a vector or hold one from
        another model than `model_id`; oldest first (a deterministic order)."""

    def set_vectors(self, updates: Sequence[tuple[str, str, builtins.list[float], str]]) -> int:
        """Store each (scope, record id, vector, model id) in one atomic step; records gone
        meanwhile are skipped. Returns how many were updated."""


SecretKind = Literal["code", "access", "refresh"]


@dataclass(frozen=True)
class AuthSecret:
    """One OAuth secret Jamgate issued, kept by its SHA-256 only (remote mode).

    `key` is the hex SHA-256 of the secret (an authorization code, an access or a refresh
    token); the secret itself is never stored. Everything issued from one consent shares
    `grant_id`, so revoking a grant revokes all of it. `data` is opaque JSON owned by the
    OAuth server (scopes, redirect URI, PKCE challenge, resource). Times are epoch seconds.
    """

    kind: SecretKind
    key: str
    client_id: str
    grant_id: str
    expires_at: float
    data: str = "{}"
    revoked_at: float | None = None


@runtime_checkable
class AuthState(Protocol):
    """Where remote mode keeps OAuth state: registered clients and secret hashes.

    Implemented by the configured store, so every instance sharing one store accepts the
    others' tokens. Each method is atomic, across processes for a `cross_process` store.
    """

    def oauth_save_client(self, client_id: str, document: str, now: float) -> None:
        """Register a client (`document` is its JSON registration record)."""

    def oauth_client(self, client_id: str) -> str | None:
        """The client's registration record, or None."""

    def oauth_put(self, secret: AuthSecret) -> None:
        """Store a secret's hash. Storing a `code` marks its client as authorized."""

    def oauth_get(self, kind: SecretKind, key: str) -> AuthSecret | None:
        """The secret with this hash (revoked and expired ones included), or None."""

    def oauth_take(self, kind: SecretKind, key: str, now: float) -> AuthSecret | None:
        """Revoke the secret at `now` and return it as it was before (so `revoked_at` set
        means someone took it first); None when unknown. The single-use primitive."""

    def oauth_revoke_grant(self, grant_id: str, now: float) -> int:
        """Revoke every unrevoked secret of a grant; how many were revoked."""

    def oauth_prune(self, now: float, unused_client_seconds: float) -> int:
        """Delete secrets that expired before `now`, and clients never authorized that were
        registered more than `unused_client_seconds` ago; how many rows went."""


@runtime_checkable
class Embedder(Protocol):
    """Text to vectors. `kind` selects the query or passage prefix of models that use one."""

    model_id: str
    dim: int

    def embed(self, texts: list[str], kind: EmbedKind) -> list[list[float]]: ...


def check_contract(obj: Any, contract: type) -> list[str]:
    """The attributes `obj` lacks to satisfy `contract`, empty when it conforms."""
    wanted = [
        name for name in dir(contract)
        if not name.startswith("_") and name not in {"register", "mro"}
    ]
    wanted += list(getattr(contract, "__annotations__", {}))
    return sorted({name for name in wanted if not hasattr(obj, name)})


@runtime_checkable
class Application(Protocol):
    """What a hook is handed as `app`: the running `jamgate_core.App` (this protocol names the
    part of it that hooks rely on, so the hook specifications need not import the engine)."""

    settings: Settings
    store: Store
    embedder: Embedder | None
    store_name: str
    pm: Any

    def store_dir(self) -> Path | None:
        """The folder of a file-backed store, else None."""

    def save(self, request: Any, *, origin: str = "mcp") -> Any:
        """Judge and store one save; the verdict."""


class Register(Protocol):
    """The `register` callback of `jamgate_register_commands` and `_benchmarks`."""

    def __call__(self, name: str, help: str, func: Callable[..., int], *, json: bool = False,
                 app: bool = False, description: str | None = None) -> ArgumentParser: ...
