"""Lifespan by type: stamps `expires_at`, and warns when a person's own words will expire."""

from __future__ import annotations

from datetime import timedelta

from pydantic import BaseModel, Field

from jamgate_core import BaseStage, Candidate, StageContext, StageResult

HUMAN_SOURCES = frozenset({"user-explicit", "user-confirmed"})


class TtlStage(BaseStage):
    """Sets the expiry of typed memories (project 90 days, state 2 days by default)."""

    name = "ttl"
    stateless = True

    class Options(BaseModel):
        short_lifespan_days: float = Field(default=7.0, ge=0)


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        if candidate.type is None or candidate.expires_at is not None:
            return StageResult.passed()
        days = ctx.settings.ttl_days()[candidate.type]
        if days is None:
            return StageResult.passed()
        expires_at = candidate.created_at + timedelta(days=days)
        notices = []
        if candidate.source in HUMAN_SOURCES and days <= self.options.short_lifespan_days:
            notices.append(
                f'This {candidate.type} memory came from the user and expires on '
                f"{expires_at:%Y-%m-%d}: after that it is hidden from recall and later "
                'compacted. If it should last, save it again with type "identity" or '
                '"preference" (never expire) or "project" (months).'
            )
        return StageResult(updates={"expires_at": expires_at}, notices=notices)
