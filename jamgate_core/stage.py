"""The stage contract: what a gate stage is, and what it is handed.

A stage is a class with a `name`, an `Options` model (validated from
`[stage_options.<name>]`), `requires` (store capabilities, and `"embedder"`, that it cannot
judge without; checked when the app starts) and `evaluate(candidate, ctx) -> StageResult`.
`BaseStage` supplies the usual header (no requirements, no options, `self.options`), so a stage
only writes `name` and `evaluate`. A stage never imports a store or an embedder: it reaches them
through the `StageContext` — `ctx.view` (the store as this save sees it, every read recorded as
a precondition of the write), `ctx.embed`, `ctx.settings`, `ctx.now`.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from jamgate_core.contracts import Embedder, EmbedKind, Preconditions, Stage, Store
from jamgate_core.models import Candidate, MemoryRecord, StageResult

if TYPE_CHECKING:
    from jamgate_core.settings import Settings

__all__ = ["EMBEDDER", "BaseStage", "ConfiguredStage", "ErrorPolicy", "NoOptions", "Stage",
           "StageContext", "StoreView"]

ErrorPolicy = Literal["fail_closed", "fail_open"]
# What a stage may list in `requires` besides the store capabilities of `contracts`.
EMBEDDER = "embedder"


class NoOptions(BaseModel):
    """The options of a stage that takes none."""

    model_config = ConfigDict(extra="forbid")


class BaseStage:
    """An optional base for stages: no requirements, no options unless `Options` is set, and
    the validated options as `self.options`."""

    name: ClassVar[str]
    requires: ClassVar[frozenset[str]] = frozenset()
    Options: ClassVar[type[BaseModel]] = NoOptions
    # Judges from the candidate, settings, `ctx.now` and `ctx.embed` alone, never `ctx.view`:
    stateless: ClassVar[bool] = False  # an import may run it in a worker process (D-207)

    def __init__(self, options: BaseModel | None = None) -> None:
        self.options: Any = options if options is not None else self.Options()

    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        raise NotImplementedError(f"stage {self.name!r} does not implement evaluate")


class StoreView:
    """The store as one save sees it: scope-bound, memoised, every set it read recorded."""

    def __init__(self, store: Store, scope: str, now: datetime, empty: bool = False) -> None:
        self.store, self.scope, self.now = store, scope, now
        # `empty`: the scope held no record at all when the caller looked (a batch asks once);
        # lookups then answer nothing without a query, still recorded as read, so a record a
        # concurrent writer adds with the same key or subject fails the write's preconditions.
        self.empty = empty
        self._by_key: dict[str, list[MemoryRecord]] = {}
        self._by_subject: dict[str, list[MemoryRecord]] = {}

    def by_text_key(self, key: str) -> list[MemoryRecord]:
        """Active records (expired included) with this text key."""
        if key not in self._by_key:
            self._by_key[key] = [] if self.empty else self.store.by_text_key(self.scope, key)
        return self._by_key[key]

    def by_subject(self, subject: str) -> list[MemoryRecord]:
        """Active records (expired included) with this canonical subject."""
        if subject not in self._by_subject:
            self._by_subject[subject] = [] if self.empty else self.store.by_subject(
                self.scope, subject)
        return self._by_subject[subject]

    def nearest(self, vector: list[float], limit: int = 5) -> list[tuple[MemoryRecord, float]]:
        """Live look-alikes by vector. Advisory: not a precondition of the write."""
        if self.empty:
            return []
        return self.store.nearest(self.scope, vector, limit=limit, now=self.now)

    def search(self, query: str, limit: int = 5) -> list[tuple[MemoryRecord, float]]:
        """Live records sharing the query's words (the store's search, any type; its cheap
        exact-words mode when it has one). Advisory: not a precondition of the write."""
        if self.empty:
            return []
        if _takes_exact(self.store):
            return self.store.search(self.scope, query, limit=limit, type=None, now=self.now,
                                     exact=True)  # type: ignore[call-arg]
        return self.store.search(self.scope, query, limit=limit, type=None, now=self.now)

    def preconditions(self) -> Preconditions:
        return Preconditions(
            scope=self.scope,
            by_key={k: frozenset(r.id for r in v) for k, v in self._by_key.items()},
            by_subject={s: frozenset(r.id for r in v) for s, v in self._by_subject.items()},
        )


def _takes_exact(store: Store) -> bool:
    """Whether the store's `search` has the optional `exact` keyword (cached per class)."""
    cls = type(store)
    if cls not in _EXACT_SEARCH:
        try:
            _EXACT_SEARCH[cls] = "exact" in inspect.signature(store.search).parameters
        except (TypeError, ValueError):
            _EXACT_SEARCH[cls] = False
    return _EXACT_SEARCH[cls]


_EXACT_SEARCH: dict[type, bool] = {}



@dataclass
class StageContext:
    """What a stage may use besides the candidate."""

    view: StoreView
    settings: Settings
    embedder: Embedder | None
    now: datetime
    dry_run: bool = False
    _vectors: dict[tuple[str, str], list[float]] = field(default_factory=dict)

    def embed(self, text: str, kind: EmbedKind = "passage") -> list[float] | None:
        """The text's vector (memoised), or None without an embedder."""
        if self.embedder is None:
            return None
        if (text, kind) not in self._vectors:
            self._vectors[(text, kind)] = self.embedder.embed([text], kind)[0]
        return self._vectors[(text, kind)]



@dataclass
class ConfiguredStage:
    stage: Stage
    name: str
    on_error: ErrorPolicy = "fail_closed"


