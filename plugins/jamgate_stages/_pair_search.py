"""Where the change stage asks the learned pair signal (D-362): the person's live facts near a
save, each scored as the fact the save replaces."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from jamgate_core import Candidate, MemoryRecord, StageContext
from jamgate_stages._nearest import nearest
from jamgate_stages._time import YEARS

if TYPE_CHECKING:
    from jamgate_stages._pair import PairModel

WEIGHTS_DIR = Path(__file__).parent / "pair_weights"
# Models that replace the shipped ones (the training script's fold models, tests' fixed ones).
OVERRIDE: dict[str, PairModel | None] = {}


def model_for(mode: str) -> PairModel | None:
    """The pair model of a mode (`vector` or `lexical`), or None when none ships: then
    neither the model module nor numpy is loaded (a lexical server stays without numpy)."""
    if mode in OVERRIDE:
        return OVERRIDE[mode]
    path = _weights(mode)
    if path is None:
        return None
    from jamgate_stages._pair import load_model

    return load_model(path)


@cache
def _weights(mode: str) -> Path | None:
    path = WEIGHTS_DIR / f"pair_{mode}.npz"
    return path if path.is_file() else None


def names_a_span(text: str, now: datetime | None) -> bool:
    """Two different years, none after this one: a span of the past in any language
    ("Od 2015 do 2019 roku pracowałem …", "2015年から2019年まで"), which the time rules read
    only in the languages of their range words. The signal leaves such a save alone (D-366)."""
    years = {int(y) for y in YEARS.findall(text)}
    return len(years) >= 2 and max(years) <= (now or datetime.now(UTC)).year


def pair_ready(ctx: StageContext) -> bool:
    """Whether a model of the context's mode is there to ask (cheap: no features read)."""
    return model_for("vector" if ctx.embedder is not None else "lexical") is not None


def best_pair(candidate: Candidate, ctx: StageContext, limit: int,
              may_retire: Callable[[MemoryRecord, str], bool]
              ) -> tuple[MemoryRecord, float, float] | None:
    """The record the model scores highest among the candidate's neighbours that it may
    retire (`may_retire(record, holder kind)`: live, trusted, older, the same holder), with
    its probability and its similarity (the cosine of the vectors, or the word overlap);
    None without a model or a neighbour. With an embedder the neighbours are
    the nearest stored vectors (the candidate's vector is the one the stage already holds: no
    extra embedding); without one, the keyword look-alikes and the newest records."""
    from jamgate_stages.change import candidate_holder, refines  # change imports this module

    vector = ctx.embed(candidate.text, "passage") if ctx.embedder is not None else None
    model = model_for("vector" if vector else "lexical")
    if model is None:
        return None
    from jamgate_stages._pair import neighbourhood, probability
    if vector:
        pool = [r for r, _ in nearest(ctx, vector, limit)]
    else:
        found = {r.id: r for r, _ in ctx.view.search(candidate.text, limit=limit)}
        found.update((r.id, r) for r, _ in ctx.view.search("", limit=4 * limit))
        pool = list(found.values())
    kind = candidate_holder(candidate)
    similarities = [_similarity(candidate.text, r, vector) for r in pool]
    best: tuple[MemoryRecord, float, float] | None = None
    for index, record in enumerate(pool):
        if refines(candidate.text, record.text) or not may_retire(record, kind):
            continue  # a refinement keeps the old value (D-300)
        if candidate.subject and record.subject and candidate.subject != record.subject:
            continue  # the subject stage read two slots: the rules are sure here
        old_vector = record.embedding if vector else None
        if vector and (old_vector is None or len(old_vector) != model.dim):
            continue  # stored by another embedder: no pair to read
        score = probability(model, candidate.text, record.text, vector, old_vector, ctx.now,
                            neighbourhood(similarities, index))
        if best is None or score > best[1]:
            best = (record, score, similarities[index])
    return best


def _similarity(text: str, record: MemoryRecord, vector: list[float] | None) -> float:
    """The cosine of the two vectors, or the word overlap where there are none."""
    from jamgate_stages._pair import cosine
    from jamgate_stages.change import lexical_similarity

    if vector and record.embedding and len(record.embedding) == len(vector):
        return cosine(vector, record.embedding)
    return lexical_similarity(text, record.text)


def pair_score(candidate: Candidate, record: MemoryRecord, vector: list[float],
               scored: list[tuple[MemoryRecord, float]], now: datetime) -> float | None:
    """The vector model's probability that `candidate` replaces `record`, one of its nearest
    `scored` neighbours; None without a model or the record's vector."""
    model = model_for("vector")
    old_vector = record.embedding
    if model is None or old_vector is None or len(old_vector) != model.dim:
        return None
    from jamgate_stages._pair import neighbourhood, probability

    similarities = [s for _, s in scored]
    index = next(i for i, (r, _) in enumerate(scored) if r.id == record.id)
    return probability(model, candidate.text, record.text, vector, old_vector, now,
                       neighbourhood(similarities, index))
