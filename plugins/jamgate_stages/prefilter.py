"""Prefilter: the cheapest refusals, on the text alone (length first)."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, Field

from jamgate_core.models import Candidate, StageResult
from jamgate_core.pipeline import StageContext


class PrefilterStage:
    """Refuses texts too short to be a fact or too long to be one."""

    name: ClassVar[str] = "prefilter"
    requires: ClassVar[frozenset[str]] = frozenset()

    class Options(BaseModel):
        min_length: int = Field(default=4, ge=1)
        max_length: int = Field(default=32_000, ge=1)

    def __init__(self, options: Options | None = None) -> None:
        self.options = options or self.Options()

    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        length = len(candidate.text)
        if length < self.options.min_length:
            return StageResult.reject(
                "prefilter.too_short",
                f"Rejected: too short ({length} characters, minimum {self.options.min_length}). "
                "Save one complete statement about the person, e.g. \"Jam lives in Athens\".",
            )
        if length > self.options.max_length:
            return StageResult.reject(
                "prefilter.too_long",
                f"Rejected: too long ({length} characters, maximum {self.options.max_length}). "
                "A memory is one durable fact, not a document: save the conclusion, or split "
                "it into separate facts, one per call.",
                redact=True,
            )
        return StageResult.passed()
