"""The app: settings → plugins → store, embedder and stages → the gate, and the operations
every transport shares (save, check, recall, forget, list)."""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from jamgate_core import loader
from jamgate_core.arguments import normalise_id
from jamgate_core.errors import Ambiguous, JamgateError, NotFound
from jamgate_core.hooks import Hooks, make_plugin_manager
from jamgate_core.models import (
    ForgetResult,
    ListResult,
    MemoryRecord,
    MemoryView,
    RecallResult,
    SaveRequest,
    ScoredMemory,
    Verdict,
    canonical_scope,
    utcnow,
)
from jamgate_core.pipeline import Pipeline
from jamgate_core.settings import Settings, load_settings
from jamgate_core.timeouts import with_deadline

RECALL_CAP = 100
LIST_CAP = 1000
COMPACT_EVERY = 500  # stored saves between opportunistic compactions


class App:
    """One Jamgate instance: loaded plugins over one open store."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or load_settings()
        self.pm = make_plugin_manager()
        self.hooks = Hooks(self.pm)
        for name, plugin in loader.hook_plugins():
            self.pm.register(plugin, name=f"{loader.PLUGINS}:{name}")
        self.store_name, raw_store = loader.load_store(self.settings)
        self.store = with_deadline(raw_store, self.settings.store_timeout_seconds)
        self.embedder = loader.load_embedder(self.settings)
        loader.bind_embedder(self.store_name, raw_store, self.embedder)
        self.stages = loader.load_stages(self.settings)
        loader.check_requirements(self.stages, self.store_name, raw_store, self.embedder)
        for component, name in [
            (raw_store, f"{loader.STORES}:{self.store_name}"),
            (self.embedder, f"{loader.EMBEDDERS}:{loader.embedder_name(self.settings)}"),
            *[(s.stage, f"{loader.STAGES}:{s.name}") for s in self.stages],
        ]:
            if component is not None and not self.pm.is_registered(component):
                self.pm.register(component, name=name)
        self.pm.check_pending()
        self.pipeline = Pipeline(self.stages, self.store, self.embedder, self.settings, self.hooks)
        self._started = False
        self._lock = threading.Lock()
        # The first stored save compacts, then every COMPACT_EVERY-th.
        self._stored_since_compaction = COMPACT_EVERY - 1

    def start(self) -> App:
        """Open the store and announce the start to plugins. Idempotent."""
        with self._lock:
            if not self._started:
                self.store.open()
                self._started = True
                self.hooks.configure(self.settings)
                self.hooks.startup(self)
        return self

    def close(self) -> None:
        with self._lock:
            if self._started:
                self._started = False
                self.hooks.shutdown(self)
                self.store.close()

    def __enter__(self) -> App:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def store_dir(self) -> Path | None:
        """The folder of the store's file (for the gate log), None for other stores."""
        return loader.store_dir_of(self.store)

    def save(self, request: SaveRequest, *, origin: str = "mcp") -> Verdict:
        """Judge and store one memory; now and then, drop records expired past their grace."""
        verdict = self.pipeline.save(request, origin=origin)
        if verdict.stored:
            self._stored_since_compaction += 1
            if self._stored_since_compaction >= COMPACT_EVERY:
                self.compact()
        return verdict

    def grace(self) -> timedelta:
        return timedelta(days=self.settings.compact_grace_days)

    def compact(self) -> int:
        """Physically remove records expired longer ago than the grace period."""
        self._stored_since_compaction = 0
        return self.store.compact(utcnow() - self.grace())

    def expired(self, *, scope: str | None = None, limit: int = LIST_CAP) -> list[MemoryRecord]:
        """Records hidden from recall because they expired, soonest compaction first."""
        records: list[MemoryRecord] = []
        cursor = None
        while len(records) < limit:
            page = self.store.list(canonical_scope(scope), status="expired", type=None,
                                   limit=min(LIST_CAP, limit), cursor=cursor, now=utcnow())
            records += page.records
            cursor = page.next_cursor
            if cursor is None:
                break
        return sorted(records[:limit], key=lambda r: (r.expires_at or r.created_at, r.id))

    def save_batch(self, requests: list[SaveRequest], *, origin: str = "import",
                   dry_run: bool = False) -> list[Verdict]:
        """Judge many saves (an import) as one atomic batch in event-time order."""
        return self.pipeline.save_batch(requests, origin=origin, dry_run=dry_run)

    def check(self, request: SaveRequest, *, origin: str = "mcp") -> Verdict:
        """Exactly the verdict `save` would give; writes and logs nothing."""
        return self.pipeline.save(request, origin=origin, dry_run=True)

    def recall(self, query: str = "", *, limit: int = 5, scope: str | None = None,
               type: str | None = None) -> RecallResult:
        """Live memories relevant to `query`, best first (newest first when it is empty)."""
        scope = canonical_scope(scope)
        query = query.strip()
        vector = None
        if query and self.embedder is not None:
            try:
                vector = self.embedder.embed([query], "query")[0]
            except Exception as exc:  # recall still answers, by words alone
                failure = f"{exc.__class__.__name__}: {exc}"
                logging.getLogger(__name__).warning(
                    "the embedder failed (%s); this recall is lexical-only.", failure)
        limit, now = min(limit, RECALL_CAP), utcnow()
        hits = self.store.search(scope, query, limit=limit, type=type, now=now, vector=vector)
        memories = [ScoredMemory.of(record, score) for record, score in hits]
        if query:
            memories = self._subjects_first(memories, query, scope, type, limit, now)
        return RecallResult(memories=self.hooks.recall_filter(memories, query, scope))

    def _subjects_first(self, memories: list[ScoredMemory], query: str, scope: str,
                        type: str | None, limit: int, now: datetime) -> list[ScoredMemory]:
        """The live records of the subjects the query asks about (`jamgate_recall_subjects`:
        "where do I live" → the person's `location`) first, then the other hits (D-261)."""
        subjects = self.hooks.recall_subjects(query)
        if not subjects:
            return memories
        top = max((m.score for m in memories), default=1.0)
        records = [record for subject in subjects
                   for record in self.store.by_subject(scope, subject)
                   if record.is_live(now) and (type is None or record.type == type)]
        records.sort(key=lambda r: r.created_at, reverse=True)
        pinned = [ScoredMemory.of(record, top) for record in records]
        ids = {m.id for m in pinned}
        return (pinned + [m for m in memories if m.id not in ids])[:limit]

    def forget(self, given: str, *, scope: str | None = None, origin: str = "mcp") -> ForgetResult:
        """Delete one memory by id or unambiguous 8+ character prefix, within the scope."""
        scope = canonical_scope(scope)
        needle = normalise_id(given)
        matches = self.store.resolve_id(scope, needle) if needle else []
        if not matches:
            raise NotFound(
                f'No memory with id "{given}" in scope "{scope}". Ids come from recall_memory or '
                "list_memories: pass the full id (or at least its first 8 characters), and the "
                "scope it was recalled from."
            )
        if len(matches) > 1:
            raise Ambiguous(
                f'"{given}" matches {len(matches)} memories in scope "{scope}" '
                f"({', '.join(matches)}). Pass more of the id.", matches,
            )
        record = self.store.delete(scope, matches[0])
        if record is None:
            raise NotFound(f'No memory with id "{given}" in scope "{scope}" (it was just removed).')
        self.hooks.forgotten(record, origin)
        return ForgetResult(forgotten=record.id)

    def list(self, *, scope: str | None = None, status: str = "active", type: str | None = None,
             limit: int = 50, cursor: str | None = None) -> ListResult:
        """One page of memories in the scope, newest first."""
        page = self.store.list(canonical_scope(scope), status=status, type=type,
                               limit=min(limit, LIST_CAP), cursor=cursor, now=utcnow())
        return ListResult(memories=[MemoryView.of(r) for r in page.records],
                          next_cursor=page.next_cursor)

    def describe(self) -> dict[str, Any]:
        """What is active: for `jamgate status` and `doctor`."""
        return {
            "home": str(self.settings.home),
            "store": self.store_name,
            "location": self.store.location(),
            "capabilities": sorted(self.store.capabilities),
            "embedder": loader.embedder_name(self.settings),
            "stages": [s.name for s in self.stages],
            "gate_log": str(self.settings.gate_log_path(self.store_dir()) or "off"),
        }


def open_app(settings: Settings | None = None) -> App:
    """Build and start an app; a failure leaves nothing open."""
    app = App(settings)
    try:
        return app.start()
    except JamgateError:
        app.close()
        raise
