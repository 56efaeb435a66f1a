"""A Jamgate gate stage that refuses memories written in ALL CAPS.

Shouted text is almost always an alert, a heading or a pasted log line, not a durable fact
about the person. The stage looks only at letters that have a case, so digits, punctuation
and scripts without case (Chinese, Arabic, …) never make a text look like shouting.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from jamgate_core import BaseStage, Candidate, StageContext, StageResult

REASON = "example.shouting"


class NoShoutingStage(BaseStage):
    """Rejects a text whose cased letters are all capitals. `BaseStage` gives it the usual
    header: no store requirements, and its validated options as `self.options`."""

    name = "no-shouting"

    class Options(BaseModel):
        """`[stage_options.no-shouting]` in jamgate.toml."""

        model_config = ConfigDict(extra="forbid")  # a misspelt option is an error, not a no-op

        min_letters: int = Field(default=8, ge=1, description="shorter texts (IBM, NASA) pass")

    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        cased = [ch for ch in candidate.text if ch.isupper() or ch.islower()]
        if len(cased) >= self.options.min_letters and all(ch.isupper() for ch in cased):
            return StageResult.reject(
                REASON,
                "Rejected: the text is written in capitals, which usually means an alert or a "
                "heading rather than a fact. Save it as an ordinary sentence, e.g. "
                '"Jam lives in Athens".',
            )
        return StageResult.passed()
