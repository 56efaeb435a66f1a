"""The gate: run the configured stages over a candidate, then write optimistically.

Stages run in the configured order and the first terminal decision wins. Every read a stage
makes through `StageContext.view` is recorded; the store's `write(plan, preconditions)`
refuses when any of it changed, and the pipeline judges again (a bounded number of times).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from itertools import chain
from typing import TYPE_CHECKING, Any, NamedTuple

from jamgate_core.contracts import Embedder, Preconditions, Store, WritePlan
from jamgate_core.errors import InvalidArgument, PreconditionFailed, StoreError, StoreUnavailable
from jamgate_core.models import (
    Candidate,
    MemoryRecord,
    MemoryView,
    Related,
    SaveRequest,
    StageResult,
    Verdict,
    canonical_scope,
    canonical_subject,
    new_id,
    utcnow,
)
from jamgate_core.stage import ConfiguredStage, StageContext, StoreView  # the old home, kept
from jamgate_core.text import folded_words

if TYPE_CHECKING:
    from jamgate_core.hooks import Hooks
    from jamgate_core.settings import Settings

MAX_ATTEMPTS = 5
BATCH_WORD_BUDGET = 200  # a word held by more of a batch's records is too common to rank on


def _words(text: str) -> set[str]:
    return set(folded_words(text))


class OverlayView(StoreView):
    """A batch's view: the store as read (recorded as preconditions) plus the batch's own
    decisions so far, so each record of an import is judged against the ones before it."""

    def __init__(self, base: StoreView) -> None:
        super().__init__(base.store, base.scope, base.now)
        self.base = base
        self._inserted: dict[str, MemoryRecord] = {}
        # Inserted ids by text key and by subject, so a lookup never scans the whole batch.
        self._inserted_by_key: dict[str, list[str]] = {}
        self._inserted_by_subject: dict[str, list[str]] = {}
        self._inserted_by_word: dict[str, list[str]] = {}
        self._retired: set[str] = set()
        self._upgraded: dict[str, MemoryRecord] = {}

    def _merged(self, found: list[MemoryRecord], inserted: Sequence[str]) -> list[MemoryRecord]:
        kept = [self._upgraded.get(r.id, r) for r in found if r.id not in self._retired]
        return kept + [self._upgraded.get(i, self._inserted[i]) for i in inserted
                       if self._inserted[i].status == "active" and i not in self._retired]

    def by_text_key(self, key: str) -> list[MemoryRecord]:
        return self._merged(self.base.by_text_key(key), self._inserted_by_key.get(key, []))

    def by_subject(self, subject: str) -> list[MemoryRecord]:
        return self._merged(self.base.by_subject(subject),
                            self._inserted_by_subject.get(subject, []))

    def nearest(self, vector: list[float], limit: int = 5) -> list[tuple[MemoryRecord, float]]:
        return [hit for hit in self.base.nearest(vector, limit) if hit[0].id not in self._retired]

    def search(self, query: str, limit: int = 5) -> list[tuple[MemoryRecord, float]]:
        """The store's hits not retired by the batch, then the batch's own live records that
        share the most words with `query` (score: the share of the query's words)."""
        stored = [(self._upgraded.get(r.id, r), s) for r, s in self.base.search(query, limit)
                  if r.id not in self._retired]
        wanted = _words(query)
        postings = sorted((self._inserted_by_word.get(word, ()) for word in wanted), key=len)
        # As in the store's ranking: words most of the batch holds say little; count only the
        # rarer ones (at least one list), so a large import stays linear.
        kept = [p for n, p in enumerate(postings) if n == 0 or len(p) <= BATCH_WORD_BUDGET]
        # Counted in C; `most_common` is `heapq.nlargest` by count, ties in first-seen order.
        best = Counter(chain.from_iterable(kept)).most_common(limit * 4)
        batch = [(self._upgraded.get(i, self._inserted[i]), n / len(wanted)) for i, n in best
                 if i not in self._retired and self._inserted[i].is_live(self.now)]
        return stored + batch[:limit]

    def preconditions(self) -> Preconditions:
        return self.base.preconditions()

    def holds(self, record_id: str) -> MemoryRecord | None:
        """A record the batch has already decided to insert, by id."""
        return self._inserted.get(record_id)

    def apply(self, plan: WritePlan) -> None:
        """Take a decided plan into the view."""
        self._retired.update(plan.retire)
        if plan.upgrade_source is not None:
            record_id, source = plan.upgrade_source
            current = self._inserted.get(record_id) or self.base.store.get(self.scope, record_id)
            if current is not None:
                self._upgraded[record_id] = current.model_copy(update={"source": source})
        if plan.insert is not None:
            self._inserted[plan.insert.id] = plan.insert
            self._inserted_by_key.setdefault(plan.insert.key, []).append(plan.insert.id)
            for word in _words(plan.insert.text):
                self._inserted_by_word.setdefault(word, []).append(plan.insert.id)
            if plan.insert.subject is not None:
                self._inserted_by_subject.setdefault(plan.insert.subject, []).append(
                    plan.insert.id)


class _WithoutLiveFacts:
    """A store whose live-fact lookups answer nothing, for stages that reach past the view
    (`ctx.view.store.search`); every other call goes to the store."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def _nothing(self, *args: Any, **kwargs: Any) -> list[Any]:
        return []

    by_text_key = by_subject = search = nearest = _nothing


class HistoryView(StoreView):
    """What imported history sees of the store: nothing. A record that was already
    superseded where it came from is not a live fact, so it is never compared with the
    active set (no duplicate, conflict or supersession); the stateless stages still judge it."""

    def __init__(self, base: StoreView) -> None:  # an empty view: every lookup finds nothing
        super().__init__(_WithoutLiveFacts(base.store), base.scope, base.now, empty=True)


@dataclass
class _Judgement:
    """The pipeline's running state for one attempt."""

    candidate: Candidate
    terminal: StageResult | None = None
    retire: list[str] = field(default_factory=list)
    history_of: str | None = None
    notices: list[str] = field(default_factory=list)
    related: list[Related] = field(default_factory=list)
    reason_code: str | None = None
    message: str | None = None
    redact: bool = False


def _spare_recorded(state: _Judgement, recorded: set[str], view: OverlayView) -> None:
    """An import never retires a record its own file keeps active (D-380). A record the store
    held before, or one holding the candidate's subject, can still be retired."""
    subject = state.candidate.subject
    kept = [i for i in state.retire if i not in recorded or (held := view.holds(i)) is None
            or (subject is not None and held.subject == subject)]
    if len(kept) < len(state.retire):
        state.retire = kept
        if not kept:  # the retiring stage's reason no longer holds
            state.reason_code = state.message = None


class Prejudged(NamedTuple):
    """A record's first `stages` stages judged ahead (D-207): the running state and the
    vectors embedded, or the InvalidArgument message raised."""

    stages: int
    state: _Judgement
    vectors: dict[tuple[str, str], list[float]]
    error: str | None = None


# (pipeline, the batch's candidates in order, now) → each candidate and its Prejudged or None.
JudgeAhead = Callable[["Pipeline", Iterator[Candidate], datetime],
                      Iterator[tuple[Candidate, Prejudged | None]]]


class Pipeline:
    """Judges saves with the configured stages and writes the outcome."""

    def __init__(self, stages: list[ConfiguredStage], store: Store, embedder: Embedder | None,
                 settings: Settings, hooks: Hooks) -> None:
        self.stages, self.store, self.embedder = stages, store, embedder
        self.settings, self.hooks = settings, hooks
        self.judge_ahead: JudgeAhead | None = None  # set for a large import (D-207)

    def candidate(self, request: SaveRequest, origin: str, now: datetime) -> Candidate:
        text = request.text.strip()
        subject = canonical_subject(request.subject)
        candidate = Candidate(
            id=request.id or new_id(),
            text=text,
            raw_length=len(request.text),
            type=request.type,
            subject=subject,
            subject_given=subject is not None,
            source=request.source,
            scope=canonical_scope(request.scope),
            created_at=request.created_at or now,
            expires_at=request.expires_at,
            client=request.client,
            provenance=request.provenance,
            origin=origin,
            status=request.status,
            updated_at=request.updated_at,
            superseded_by=request.superseded_by,
            superseded_at=request.superseded_at,
            annotations={"raw_subject": request.subject, "raw_scope": request.scope},
        )
        if request.keep_subject:
            candidate = candidate.model_copy(update={"subject_given": True})
        return self.hooks.prepare_candidate(candidate)

    def save(self, request: SaveRequest, *, origin: str = "mcp", dry_run: bool = False) -> Verdict:
        """Judge `request` and, unless `dry_run`, store the outcome and report it."""
        for _attempt in range(MAX_ATTEMPTS):
            now = utcnow()
            candidate = self.candidate(request, origin, now)
            ctx = StageContext(
                view=StoreView(self.store, candidate.scope, now), settings=self.settings,
                embedder=self.embedder, now=now, dry_run=dry_run,
            )
            judgement = self._judge(candidate, ctx)
            verdict, plan = self._conclude(judgement, now, None if dry_run else ctx)
            if dry_run:
                return verdict
            if plan is not None and not plan.empty:
                try:
                    self.store.write(plan, ctx.view.preconditions())
                except PreconditionFailed:
                    continue
            self.hooks.decision(verdict, judgement.candidate, judgement.redact, origin)
            return verdict
        raise StoreUnavailable(
            f"the store kept changing while this save was judged ({MAX_ATTEMPTS} attempts); "
            "nothing was saved. Try again.")

    def save_batch(self, requests: Sequence[SaveRequest], *, origin: str = "import",
                   dry_run: bool = False) -> list[Verdict]:
        """Judge many saves as one atomic batch, oldest (by event time) first, each against
        the store plus the batch's earlier decisions; then write everything or nothing."""
        order = sorted(range(len(requests)),
                       key=lambda i: (requests[i].created_at or utcnow(), i))
        # Records another store judged and kept active (native and predecessor files).
        recorded = {r.id for r in requests if r.id and r.keep_subject and r.status == "active"}
        for _attempt in range(MAX_ATTEMPTS):
            now = utcnow()
            views: dict[str, OverlayView] = {}
            verdicts: dict[int, Verdict] = {}
            decided: list[tuple[Verdict, _Judgement]] = []
            plans: list[WritePlan] = []
            # Scopes holding nothing yet, read once: an empty scope is asked nothing per record.
            occupied = {canonical_scope(str(scope)) for scope in self.store.scopes()}
            candidates = (self.candidate(requests[i], origin, now) for i in order)
            ahead = (self.judge_ahead(self, candidates, now) if self.judge_ahead
                     else ((candidate, None) for candidate in candidates))
            for (candidate, prior), index in zip(ahead, order, strict=True):
                if candidate.scope not in views:
                    views[candidate.scope] = OverlayView(StoreView(
                        self.store, candidate.scope, now, empty=candidate.scope not in occupied))
                view = views[candidate.scope]
                ctx = StageContext(view=view, settings=self.settings, embedder=self.embedder,
                                   now=now, dry_run=dry_run)
                try:
                    judgement = self._judge(candidate, ctx, prior)
                except InvalidArgument as exc:
                    verdicts[index] = Verdict(decision="rejected",
                                              reason_code="validation.invalid_argument",
                                              message=f"Not imported: {exc}")
                    continue
                if judgement.terminal is None and requests[index].id:
                    judgement.terminal = self._known_id(judgement.candidate, view)
                if judgement.terminal is None and judgement.retire and recorded:
                    _spare_recorded(judgement, recorded, view)
                verdict, plan = self._conclude(judgement, now, None if dry_run else ctx)
                if plan is not None and not plan.empty:
                    view.apply(plan)
                    plans.append(plan)
                verdicts[index] = verdict
                decided.append((verdict, judgement))
            if not dry_run and plans:
                try:
                    self.store.write_many(plans, [v.preconditions() for v in views.values()])
                except PreconditionFailed:
                    continue
            if not dry_run:
                for verdict, judgement in decided:
                    self.hooks.decision(verdict, judgement.candidate, judgement.redact, origin)
            return [verdicts[i] for i in range(len(requests))]
        raise StoreUnavailable(
            f"the store kept changing while the batch was judged ({MAX_ATTEMPTS} attempts); "
            "nothing was written. Try again.")

    @staticmethod
    def _known_id(candidate: Candidate, view: OverlayView) -> StageResult | None:
        """An imported id already stored in the scope: the same text is a duplicate (a
        re-import), another text is refused, so an import never overwrites a memory."""
        existing = view.holds(candidate.id) or (
            None if view.base.empty else view.store.get(view.scope, candidate.id))
        if existing is None:
            return None
        if existing.key == candidate.key:
            return StageResult(decision="duplicate", reason_code="import.known_id",
                               message=f'Already known (same id): "{existing.text}".',
                               existing_id=existing.id)
        return StageResult.reject(
            "import.id_taken",
            f"Not imported: id {candidate.id} already belongs to another memory in scope "
            f'"{view.scope}". Remove the id from the file to import it as a new memory.')

    def _judge(self, candidate: Candidate, ctx: StageContext,
               prior: Prejudged | None = None) -> _Judgement:
        """Every stage over `candidate`, or the ones after those `prior` judged ahead."""
        if candidate.is_history:
            ctx = replace(ctx, view=HistoryView(ctx.view))
        state, start = (prior.state, prior.stages) if prior else (_Judgement(candidate), 0)
        if prior is not None and prior.error is not None:
            raise InvalidArgument(prior.error)
        ctx._vectors.update(prior.vectors if prior else {})
        for configured in self.stages[start:] if state.terminal is None else ():
            result = self._run(configured, state.candidate, ctx)
            if result is None:
                continue
            state.redact = state.redact or result.redact
            state.notices += result.notices
            named = {r.id for r in state.related}  # two stages may name one look-alike
            state.related += [r for r in result.related if r.id not in named]
            if result.decision is not None:
                state.terminal = result
                return state
            if result.updates:
                state.candidate = state.candidate.model_copy(update=result.updates)
            state.retire += [i for i in result.retire if i not in state.retire]
            state.history_of = result.store_as_history_of or state.history_of
            state.reason_code = result.reason_code or state.reason_code
            state.message = result.message or state.message
        return state

    def _run(self, configured: ConfiguredStage, candidate: Candidate,
             ctx: StageContext) -> StageResult | None:
        try:
            return self.hooks.run_stage(configured.stage, candidate, ctx)
        except (InvalidArgument, StoreError):
            raise  # a usage error or a store fault, not a verdict: the agent gets a tool error
        except Exception as exc:
            if configured.on_error == "fail_open":
                return StageResult(
                    notices=[f"The {configured.name} stage failed ({type(exc).__name__}) and was "
                             "skipped, as configured (fail open)."]
                )
            return StageResult.reject(
                f"stage_error.{configured.name}",
                f"Not saved: the {configured.name} stage failed ({type(exc).__name__}: {exc}). "
                "The gate fails closed; nothing was stored. Report this if it persists.",
            )

    def _conclude(self, state: _Judgement, now: datetime,
                  ctx: StageContext | None) -> tuple[Verdict, WritePlan | None]:
        """The verdict and the write it needs. With `ctx` (a real save), a record to store
        gets its vector (memoised, so a stage that already embedded it costs nothing)."""
        candidate = state.candidate
        terminal = state.terminal
        if terminal is not None:
            assert terminal.decision is not None
            plan = None
            if terminal.upgrade_source and terminal.existing_id:
                plan = WritePlan(scope=candidate.scope, now=now,
                                 upgrade_source=(terminal.existing_id, terminal.upgrade_source))
            existing = terminal.existing_id
            return Verdict(
                decision=terminal.decision, reason_code=terminal.reason_code or terminal.decision,
                message=terminal.message or terminal.decision, id=existing, related=state.related,
                notices=state.notices, memory=self._existing_view(candidate.scope, existing),
            ), plan
        if ctx is not None and ctx.embedder is not None and candidate.embedding is None:
            try:
                candidate = candidate.model_copy(update={
                    "embedding": ctx.embed(candidate.text),
                    "embedding_model": ctx.embedder.model_id})
            except Exception as exc:  # the memory is kept; `jamgate reindex` adds the vector
                state.notices.append(
                    f"The embedder failed ({type(exc).__name__}), so this memory was stored "
                    "without a vector: recall finds it by its words until `jamgate reindex` "
                    "runs.")
        retire: list[str] = []
        if candidate.is_history:
            record = candidate.to_record("superseded", superseded_by=candidate.superseded_by,
                                         now=candidate.superseded_at or now)
            decision = "saved"
            state.reason_code = state.reason_code or "import.history"
            state.message = state.message or f'Saved as history: "{candidate.text}"'
        elif state.history_of:
            record = candidate.to_record("superseded", superseded_by=state.history_of, now=now)
            decision = "saved"
        else:
            record = candidate.to_record()
            retire = state.retire
            decision = "superseded" if retire else "saved"
        default_code = "supersede.recency" if retire else "gate.accepted"
        verdict = Verdict(
            decision=decision,  # type: ignore[arg-type]
            reason_code=state.reason_code or default_code,
            message=state.message or f'Saved: "{candidate.text}"',
            id=record.id,
            superseded_ids=list(retire),
            related=state.related,
            notices=state.notices,
            memory=MemoryView.of(record),
        )
        return verdict, WritePlan(scope=candidate.scope, now=now, insert=record,
                                  retire=tuple(retire))

    def _existing_view(self, scope: str, record_id: str | None) -> MemoryView | None:
        if record_id is None:
            return None
        record = self.store.get(scope, record_id)
        return MemoryView.of(record) if record else None

