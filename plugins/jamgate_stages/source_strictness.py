"""Source strictness: an agent's own inference needs more evidence than the user's word.

For the configured weak sources (`agent-inferred` by default), two refusals:
- `source.general_knowledge`: a general truth about the world, not about the person or their
  work ("Water boils at 100 degrees", "Python is a programming language"). The same text passes
  when the user asked to keep it (`user-explicit`, `user-confirmed`), and `project` saves are
  exempt.
- `source.speculative`: a hedged guess ("User probably likes jazz", "It seems the user prefers
  Vim"): the hallucinated-profile failure of the mem0 #4573 audit. Confirm with the user.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from jamgate_core import BaseStage, Candidate, Source, StageContext, StageResult

_PERSON = re.compile(
    r"\b(?:i|i'm|i've|me|my|mine|we|our|us|you|your|he|she|his|her|him|they|their|them|user|"
    r"user's|users|jam|jam's|person|people's)\b|\b\w+['’]s\b|^(?:always|never|don't|do not|"
    r"please|prefer|use|avoid|keep|answer|reply|respond|write|run)\b",
    re.IGNORECASE,
)
_CATEGORY = (
    r"(?:(?:\w+\s+){0,3}?(?:language|framework|library|database|protocol|format|operating "
    r"system|planet|star|moon|country|city|capital|continent|river|mountain|ocean|sea|element|"
    r"metal|gas|fruit|vegetable|animal|mammal|bird|fish|reptile|insect|plant|tree|disease|"
    r"vitamin|mineral|chemical|compound|molecule|number|unit|currency|algorithm|company|"
    r"organization|sport|instrument|color|colour|organ|galaxy|tool|software|editor|"
    r"browser|standard))\b"
)
_GENERAL = re.compile(
    rf"^(?:the\s+|an?\s+)?[\w .+#'-]{{1,40}}?\s+(?:is|are|was|were)\s+(?:a|an|the|one of the)"
    rf"\s+{_CATEGORY}|"
    r"^(?:the\s+)?(?:capital|population|speed|boiling point|freezing point|largest|smallest|"
    r"tallest|longest|highest|deepest|first|oldest) of\b|"
    r"^(?:the\s+|an?\s+)?[\w .+#'-]{1,40}?\s+is\s+the\s+(?:largest|smallest|tallest|longest|"
    r"highest|deepest|fastest|oldest|first|capital|powerhouse)\b|"
    r"\b(?:boils|freezes|melts|orbits|revolves around|consists of|is made of|are made of|"
    r"stands for|is composed of)\b|"
    r"^(?:http\s+)?\d{3}\s+(?:means|is|indicates)\b|"
    r"\b(?:was|were)\s+(?:invented|founded|discovered|written|painted|composed)\s+(?:in|by)\b|"
    # A release note: "Python 3.12 removed the distutils module".
    r"^[A-Z][\w.+#-]*(?:\s+[A-Z][\w.+#-]*)?\s+v?\d+(?:\.\d+)+\s+(?:removed|introduced|added|"
    r"deprecated|dropped|replaced)\b|"
    # A measurement of a named thing: "The Eiffel Tower is 330 metres tall".
    r"^the\s+[\w' -]{2,40}?\s+(?:is|are)\s+(?:about\s+|around\s+|roughly\s+)?[\d,.]+\s*"
    r"(?:metres|meters|m|km|kilometres|kilometers|feet|ft|miles|kg|tonnes|tons)\s+"
    r"(?:tall|high|long|deep|wide|heavy|away)\b|"
    # A generalisation about a group: "Software developers often use Git".
    r"^(?:most\s+|many\s+)?(?:\w+\s+)?(?:developers|engineers|programmers|companies|teams|"
    r"people|humans|scientists|doctors)\s+(?:often|usually|generally|typically|commonly|"
    r"tend to)\b",
    re.IGNORECASE,
)
# A hedge on the main claim: near the start ("User probably likes jazz", "It seems the user
# prefers Vim"), not inside a reported belief ("Nate believes X is probably the best").
_HEDGE = re.compile(
    r"^(?:\S+\s+){0,3}?(?:probably|possibly|perhaps|maybe|presumably|likely|might|may be|"
    r"could be|seems? to|seemingly|apparently)\b|"
    r"^(?:it (?:seems|appears|looks like)|i (?:think|guess|assume|suspect|believe)|"
    r"not sure|it is possible)\b",
    re.IGNORECASE,
)


def _strict_default() -> list[Source]:
    return ["agent-inferred"]


def is_general_knowledge(text: str) -> bool:
    """A statement about the world with no person in it."""
    return not _PERSON.search(text) and bool(_GENERAL.search(text.strip()))


def is_speculative(text: str) -> bool:
    """A hedged guess rather than an observation."""
    return bool(_HEDGE.search(text))


class SourceStrictnessStage(BaseStage):
    """Holds weakly sourced saves to a higher standard."""

    name = "source-strictness"

    class Options(BaseModel):
        strict_sources: list[Source] = Field(default_factory=_strict_default)
        general_knowledge: bool = True
        speculation: bool = True


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        if candidate.source not in self.options.strict_sources:
            return StageResult.passed()
        text = candidate.text
        if (self.options.general_knowledge and candidate.type != "project"
                and is_general_knowledge(text)):
            return StageResult.reject(
                "source.general_knowledge",
                "Rejected: general knowledge, not a fact about the person. Memory is for what "
                "is true of this person and their work. If the user asked you to keep it, save "
                "it again with source \"user-explicit\"; if it is about their project, say whose "
                "it is or pass type \"project\".",
            )
        if self.options.speculation and is_speculative(text):
            return StageResult.reject(
                "source.speculative",
                "Rejected: a guess, not an observation (hedged words such as \"probably\", "
                "\"seems\", \"might\"). Ask the user, then save what they confirm with source "
                "\"user-confirmed\".",
            )
        return StageResult.passed()
