"""Argument validation: what no judgement may start without. A failure is a usage error."""

from __future__ import annotations

import unicodedata

from pydantic import BaseModel, Field

from jamgate_core import BaseStage, Candidate, InvalidArgument, StageContext, StageResult


class ValidationStage(BaseStage):
    """Refuses malformed arguments before any judgement (mandatory)."""

    name = "validation"
    stateless = True

    class Options(BaseModel):
        max_subject_length: int = Field(default=200, gt=0)
        max_scope_length: int = Field(default=200, gt=0)


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        for label, value, limit in (
            ("subject", candidate.subject, self.options.max_subject_length),
            ("scope", candidate.scope, self.options.max_scope_length),
        ):
            if value is None:
                continue
            if len(value) > limit:
                raise InvalidArgument(
                    f'"{label}" is {len(value)} characters long; the limit is {limit}. '
                    f"A {label} is a short key such as "
                    f'{"location" if label == "subject" else "work/greek"}.'
                )
            if any(unicodedata.category(ch) in {"Cc", "Cf"} for ch in value):
                raise InvalidArgument(f'"{label}" contains control characters; remove them.')
        return StageResult.passed()
