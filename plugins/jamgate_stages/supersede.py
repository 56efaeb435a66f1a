"""Supersession by subject, with the trust ladder and event-time order.

A save on a subject that already has an active record:
- from a less-trusted source than a live record there: `conflict`, handed back to the agent;
- older (by event time) than the newest live record: stored as history, retiring nothing;
- about a closed past ("I worked at Acme from 2019 to 2023", `_time.is_past`) while a live
  record there speaks of the present: stored as history of it, retiring nothing (D-119);
- saying more about a live record's value, with a subject the stage derived — every content
  word of the record kept, no change declared ("Vivo en Barcelona" → "Vivo en el barrio de
  Gràcia, en Barcelona"): a refinement, not a new value; stored beside it without the subject
  (a subject has one active record), retiring nothing (D-300);
- the same content words as a live record's, some written another way ("favourite" /
  "favorite", `neardup.token_similarity` 1): judged by the near-duplicate stage as a copy,
  like a refinement (D-409);
- otherwise: stored, and every active record on the subject is retired.
The subject's records are read under any spelling of it (`_spelling.on_subject`, D-409).
Expired records never block; they are retired like any other.
"""

from __future__ import annotations

from pydantic import BaseModel

from jamgate_core import TRUST, BaseStage, Candidate, StageContext, StageResult
from jamgate_stages._spelling import on_subject
from jamgate_stages._text import reading
from jamgate_stages._time import is_past
from jamgate_stages.change import refines
from jamgate_stages.neardup import token_similarity


class SupersedeStage(BaseStage):
    """Retires outdated facts on the same subject; refers trust conflicts back."""

    name = "supersede"

    class Options(BaseModel):
        pass


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        if candidate.subject is None:
            return StageResult.passed()
        matches = on_subject(ctx.view, candidate.subject)  # any spelling of it (D-409)
        live = [record for record in matches if record.is_live(ctx.now)]
        trust = TRUST[candidate.source]
        stronger = [record for record in live if TRUST[record.source] > trust]
        if stronger:
            best = max(stronger, key=lambda record: TRUST[record.source])
            return StageResult(
                decision="conflict",
                reason_code="trust.conflict",
                message=(
                    f'Not saved: conflict on subject "{candidate.subject}". A more trusted '
                    f'memory exists: "{best.text}" ({best.source}). The new fact came from '
                    f"{candidate.source}. Confirm with the user; to apply it, save again with "
                    f'source "{best.source}" or higher.'
                ),
                existing_id=best.id,
            )
        present = [record for record in live if not is_past(record.text, ctx.now)]
        if present and is_past(reading(candidate.text), ctx.now):
            current = max(present, key=lambda record: record.created_at)
            return StageResult(
                store_as_history_of=current.id,
                reason_code="supersede.past",
                message=(
                    f'Saved as history: this speaks of the past, and the memory on subject '
                    f'"{candidate.subject}" that holds now ("{current.text}") stays current.'
                ),
            )
        newer = [record for record in live if record.created_at > candidate.created_at]
        if newer:
            newest = max(newer, key=lambda record: record.created_at)
            return StageResult(
                store_as_history_of=newest.id,
                reason_code="supersede.history",
                message=(
                    f'Saved as history: a newer memory on subject "{candidate.subject}" is '
                    f'current ("{newest.text}"), so this older fact does not replace it.'
                ),
            )
        if not matches:
            return StageResult.passed()
        if any(refines(candidate.text, r.text) or token_similarity(candidate.text, r.text) == 1
               for r in live) and not candidate.subject_given:
            # It says more about the value, not a new one: both stay; the store holds one active
            # record a subject, so the refinement goes without the subject it derived (D-300).
            # The near-duplicate stage then judges it: a copy that adds only an intensifier or
            # the user's name is refused there (D-361, D-400).
            return StageResult.passed(updates={"subject": None})
        retired = ", ".join(f'"{record.text}"' for record in matches)
        return StageResult(
            retire=[record.id for record in matches],
            reason_code="supersede.recency",
            message=(
                f'Saved: "{candidate.text}", and retired the older memory on subject '
                f'"{candidate.subject}": {retired}.'
            ),
        )
