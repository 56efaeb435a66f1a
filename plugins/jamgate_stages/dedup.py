"""Exact duplicates: a live record with the same text key answers the save.

A higher-trust restatement raises the stored record's source instead of adding a copy. A
matching record that has expired never blocks: the new save retires it (`ttl.revived`), so
there is never more than one active record per text.
"""

from __future__ import annotations

from pydantic import BaseModel

from jamgate_core import TRUST, BaseStage, Candidate, StageContext, StageResult


class DedupStage(BaseStage):
    """Answers `duplicate` for a text that is already known in the scope."""

    name = "dedup"

    class Options(BaseModel):
        pass


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        matches = ctx.view.by_text_key(candidate.key)
        live = [record for record in matches if record.is_live(ctx.now)]
        if live:
            existing = live[0]
            if TRUST[candidate.source] > TRUST[existing.source]:
                return StageResult(
                    decision="duplicate",
                    reason_code="dedup.exact.source_upgraded",
                    message=(
                        f'Already known: "{existing.text}". Nothing was added; the stored '
                        f"memory's source was raised from {existing.source} to "
                        f"{candidate.source}."
                    ),
                    existing_id=existing.id,
                    upgrade_source=candidate.source,
                )
            return StageResult(
                decision="duplicate",
                reason_code="dedup.exact",
                message=f'Already known (no duplicate added): "{existing.text}".',
                existing_id=existing.id,
            )
        expired = [record.id for record in matches]
        if expired:
            return StageResult(retire=expired, reason_code="ttl.revived")
        return StageResult.passed()
