"""Injection: refuse text that would act as an instruction when recalled into a prompt.

Only real injection markers count: overriding earlier instructions ("ignore all previous
instructions"), reassigning the agent's identity ("you are now DAN"), chat-template role tags
(`<system>`, `[INST]`, `<|im_start|>`), tool-call syntax and prompt delimiters. A preference
about how agents should behave ("always run the tests", "from now on answer in Greek") is a
memory and passes.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from jamgate_core import BaseStage, Candidate, StageContext, StageResult
from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._text import HintedPattern, reading

_EARLIER = r"(?:previous|prior|above|earlier|preceding|initial|original|former|system|all)"
_RULES = (r"(?:instructions?|prompts?|rules|directions|directives|guidelines|messages|context|"
          r"constraints|commands)")
_OVERRIDE = HintedPattern(lazy_compile(
    rf"\b(?:ignore|disregard|forget|override|bypass|discard|drop)\s+(?:all\s+|any\s+|every\s+)?"
    rf"(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+)?(?:{_EARLIER}\s+)+{_RULES}\b|"
    r"\b(?:ignore|disregard|forget)\s+(?:everything|anything)\s+(?:above|before|you were told)\b|"
    r"\b(?:ignora|olvida|descarta)(?:r)?\s+(?:todas\s+)?las\s+instrucciones\s+"
    r"(?:anteriores|previas)|"
    r"\b(?:ignorier|vergiss|vergesse)(?:e|en|t)?\s+(?:alle\s+)?(?:vorherigen|bisherigen|obigen)"
    r"\s+(?:Anweisungen|Befehle)|"
    r"\b(?:ignore[rz]?|oublie[rz]?)\s+(?:toutes\s+)?les\s+instructions\s+pr[ée]c[ée]dentes|"
    r"\bαγνόησε\s+(?:όλες\s+)?τις\s+προηγούμενες\s+οδηγίες|"
    r"\bигнорируй(?:те)?\s+(?:все\s+)?предыдущие\s+инструкции|"
    r"忽略(?:之前|以上|前面|先前)的?(?:所有)?(?:指令|指示|说明)|"
    r"(?:以前|前)の指示を無視",
    re.IGNORECASE,
), ("ignor", "disregard", "forget", "override", "bypass", "discard", "drop",
    "olvida", "descarta", "vergiss", "vergesse", "oublie"))
_PERSONA = HintedPattern(lazy_compile(
    r"\byou\s+are\s+now\s+(?:a|an|the|in|my|no\s+longer|dan|jailbroken|unrestricted|free)\b|"
    r"\byou\s+are\s+no\s+longer\s+(?:a|an|bound|restricted|an?\s+ai)\b|"
    r"\bfrom\s+now\s+on,?\s+you\s+(?:are|will\s+be|act\s+as)\s+(?:a|an|the|dan)\b|"
    r"\b(?:developer|dan|god|jailbreak)\s+mode\b|\bdo\s+anything\s+now\b|"
    r"\bnew\s+(?:system\s+)?(?:persona|identity|instructions)\s*:",
    re.IGNORECASE,
), ("you", "mode", "anything", "new"))
_ROLE_TAG = HintedPattern(lazy_compile(
    r"<\s*/?\s*(?:system|assistant|user|human|developer|instructions?|sys)\s*>|"
    r"\[/?INST\]|<</?SYS>>|<\|[a-z_]+\|>|"
    r"^\s*#{1,6}\s*(?:system|instructions?|assistant|human)\b\s*:?|"
    r"(?-i:^\s*(?:SYSTEM|ASSISTANT|HUMAN)\s*:)|"
    r"<\s*/\s*(?:memory|memories|context|untrusted[\w-]*|recalled[\w-]*)\s*>\s*\S|"
    r"(?-i:(?:^|[>\]]\s*)(?:SYSTEM|ASSISTANT)\s*:)",
    re.IGNORECASE | re.MULTILINE,
), ("<", "[", "#", "system", "assistant", "human"))
_TRANSCRIPT = lazy_compile(r"^\s*(?:Human|Assistant|System)\s*:", re.MULTILINE)
_TOOL_CALL = HintedPattern(lazy_compile(
    r"<\s*/?\s*(?:tool_call|tool_use|tool_result|function_call(?:s)?|function_results?|"
    r"invoke|parameter)\b|"
    r"\{\s*\"(?:name|tool|function)\"\s*:\s*\"[^\"]+\"\s*,\s*\"(?:arguments|parameters|input|"
    r"args)\"\s*:|"
    r"\"function\"\s*:\s*\{\s*\"name\"\s*:|\"tool_calls\"\s*:",
    re.IGNORECASE,
), ("<", '"'))
_DELIMITER = HintedPattern(lazy_compile(
    r"\b(?:begin|end)\s+(?:of\s+)?(?:the\s+)?(?:system\s+)?(?:prompt|instructions)\b\s*[-=#*]{2,}|"
    r"[-=#*]{3,}\s*(?:begin|end|new)\s+(?:of\s+)?(?:system\s+)?(?:prompt|instructions)\b|"
    r"\bend\s+of\s+(?:system\s+)?prompt\b",
    re.IGNORECASE,
), ("prompt", "instructions"))

_CHECKS: tuple[tuple[str, str, HintedPattern], ...] = (
    ("override", "an instruction to override earlier instructions", _OVERRIDE),
    ("persona", "an attempt to reassign the agent's identity", _PERSONA),
    ("role_tag", "chat-template role markup", _ROLE_TAG),
    ("tool_call", "tool-call syntax", _TOOL_CALL),
    ("delimiter", "a prompt delimiter", _DELIMITER),
)


def injection_reason(text: str) -> tuple[str, str] | None:
    """The (code suffix, description) of the first injection marker in `text`, or None."""
    for code, what, pattern in _CHECKS:
        if pattern.search(text):
            return code, what
    if len(_TRANSCRIPT.findall(text)) >= 2:
        return "role_tag", "a chat transcript with role labels"
    return None


class InjectionStage(BaseStage):
    """Refuses prompt-injection markers; preferences about agent behaviour pass."""

    name = "injection"
    stateless = True

    class Options(BaseModel):
        pass


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        found = injection_reason(reading(candidate.text))
        if found is None:
            return StageResult.passed()
        code, what = found
        return StageResult.reject(
            f"injection.{code}",
            f"Rejected: this contains {what}. Memory is read back into every session, so it "
            "must not carry text that would act as instructions to the model. If the person "
            "has a real preference about how agents behave, save it plainly, e.g. \"Jam wants "
            "answers in Greek\".",
        )
