"""Chatter: text about the conversation, the agent or a tool rather than about the person.

Reason codes:
- `chatter.status`: status tokens alone (`HEARTBEAT_OK`, `NO_REPLY`, `[DONE]`).
- `chatter.identifier`: a bare URL, path, file name, id or email address with no claim.
- `chatter.timestamp`: a date or time alone.
- `chatter.recall_echo`: recalled memories or a memory tool's reply saved back (the feedback
  loop of the mem0 #4573 audit).
- `chatter.system_prompt`: system-prompt or boot-file echoes ("You are a helpful assistant…",
  "As an AI language model…") and the agent talking about its own memory.
- `chatter.conversation`: narration of the conversation ("User asked about…", "The assistant
  said…", "Conversation summary: …").
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from jamgate_core import BaseStage, Candidate, StageContext, StageResult
from jamgate_stages._text import wordset

_STATUS_WORDS = wordset(
    """DONE OK ACK NOOP PONG PING READY SUCCESS SUCCEEDED FAILED FAILURE ERROR TIMEOUT COMPLETE
    COMPLETED PENDING IDLE NULL NONE EOF EOT STOP END"""
)
_STATUS_TOKEN = re.compile(r"^[\[(<{]*([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)[\])>}]*[.!:]?$")

_URL = re.compile(r"^<?(?:[a-z][a-z0-9+.-]*://|www\.)\S+>?$", re.IGNORECASE)
_PATH = re.compile(r"^(?:~|\.{1,2})?(?:[/\\][\w.@+-]+)+[/\\]?$|^[A-Za-z]:\\\S*$")
_RELATIVE_PATH = re.compile(r"^[\w.@+-]+(?:/[\w.@+-]+)+/?$")
_FILE = re.compile(r"^[\w@+-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,5}$")
_IDENT = re.compile(
    r"^(?:(?=[0-9a-fA-F]*\d)[0-9a-fA-F]{7,64}|"
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|"
    r"[A-Za-z_]\w*(?:[._:]\w+)+|[a-z]+(?:[A-Z][a-z0-9]*)+|[a-z0-9]+(?:_[a-z0-9]+)+|"
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+)$"
)
_LABEL = re.compile(
    r"^(?:id|path|url|link|file|commit|sha|hash|ref|branch|pr|issue|email|ticket)\s*[:=#]\s*",
    re.IGNORECASE,
)

_DATE_WORDS = re.compile(
    r"\b(?:mon|tue|wed|thu|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday|jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|"
    r"april|june|july|august|september|october|november|december|am|pm|utc|gmt|z|t|est|edt|"
    r"cst|cdt|mst|mdt|pst|pdt|cet|cest|eet|eest|bst|ist|jst|kst|aest|timestamp|date|time|at|"
    r"on)\b",
    re.IGNORECASE,
)
_DATE_CHARS = re.compile(r"^[\d\s:\-/.,+T Z\[\]()]*$")
_DATE_SHAPE = re.compile(r"\d{1,4}[-/.:]\d{1,2}")

_RECALL_ECHO = re.compile(
    r"^\s*(?:recalled memor(?:y|ies)|relevant memor(?:y|ies)|retrieved memor(?:y|ies)|memories|"
    r"from memory|here are (?:the |your |some )?(?:relevant )?memories|"
    r"related memories|memory context|user memories)\s*[:\-]"
    r"|^\s*[-*•]?\s*\[(?:identity|project|preference|state|fact|memory)\][^\n]*"
    r"(?:\bid:|\(score|\bscore[:=])"
    r"|^\s*id:\s*[0-9a-f]{8}-[0-9a-f-]{27}\s*$"
    r"|^(?:saved|superseded|already known|rejected(?: by gate)?|not saved|duplicate|"
    r"memory saved|memory stored|stored memory)\s*[:(]"
    r"|^\s*(?:based on|according to) (?:the |my |your |our )?(?:previous |past |stored |"
    r"saved |recalled |existing |earlier |prior )?memor(?:y|ies)\b",
    re.IGNORECASE | re.MULTILINE,
)
_SYSTEM_PROMPT = re.compile(
    r"^\s*(?:you are (?:a|an) (?:helpful|friendly|expert|ai|intelligent|smart|large)\b|"
    r"you are (?:claude|chatgpt|gpt|gemini|copilot|an ai|a language model|a large language)\b|"
    r"as an ai\b|as a (?:large )?language model|i am an ai\b|i'm an ai\b|"
    r"i(?: am|'m) (?:claude|chatgpt|an assistant|a language model)\b|"
    r"(?:the )?system prompt\s*:|your (?:role|task|job) is to\b|"
    r"i (?:don't|do not|cannot|can't) (?:have|store|remember|recall|access)\b[^.]*"
    r"\b(?:memor|remember|preferences|personal)|"
    r"no (?:relevant )?memories (?:found|yet|stored|available)|"
    r"(?:there are )?no (?:stored )?memories)",
    re.IGNORECASE,
)
_AGENT = r"(?:the\s+)?(?:assistant|ai|agent|bot|model|claude|chatgpt|gpt|gemini|copilot|llm)"
_CONVERSATION = re.compile(
    r"^\s*(?:(?:the\s+)?user\s+(?:asked|asks|inquired|inquires|wondered|wonders|wants to know|"
    r"is asking|was asking|requested|requests|greeted|thanked|said (?:hi|hello|thanks|thank you|"
    r"goodbye|bye|ok|okay)|needs help|wants help|asked for help|is looking for help)\b|"
    rf"{_AGENT}\s+(?:said|says|asked|replied|responded|answered|suggested|offered|explained|"
    r"told|mentioned|provided|recommended|searched|looked up|recalled|saved|generated|wrote|"
    r"apologi[sz]ed|confirmed|greeted|thanked)\b|"
    r"(?:conversation|chat|session|dialog(?:ue)?|thread)\s+(?:summary|log|transcript|recap)\b|"
    r"summary of (?:the|this|our) (?:conversation|chat|session|discussion)|"
    r"(?:in this|during this|in the|during the) (?:conversation|chat|session)\b|"
    r"we (?:discussed|talked about|chatted about|went over|covered)\b|"
    r"(?:the )?(?:conversation|chat|discussion|session)(?: so far)? (?:was about|is about|"
    r"covered|has covered|focused on|revolved around|centred on|centered on)\b|"
    r"(?:the )?(?:tool|function|tool call|function call|command|api call)\s+(?:call\s+)?"
    r"(?:completed|succeeded|finished|failed|returned|timed out|ran|executed)\b|"
    r"let me (?:check|look|search|see|think|try|run|find|review|read|open|verify|fetch|"
    r"recall|remember|save|update|grep|start|first)\b|"
    r"(?:ok|okay|alright|sure|done|great|got it)[,.!]?\s+i(?:'ve| have|'ll| will| just)\b|"
    r"i(?:'ve| have)? (?:just )?(?:searched|grepped|ran|executed|opened|edited|read|scanned|"
    r"looked through|went through)\s+(?:the|your|this|all|through)\s+(?:\w+\s+)?(?:codebase|"
    r"repo|repository|files?|tests?|test suite|logs?|directory|folder|code|diff|output|results|"
    r"command|script|memory|memories|memory store)\b|"
    r"el usuario (?:preguntó|pregunta)|der (?:benutzer|nutzer) (?:fragte|fragt)|"
    r"l'utilisateur (?:a demandé|demande)|ο χρήστης ρώτησε|пользователь (?:спросил|спрашивает)|"
    r"用户(?:问|询问)|ユーザーは.*(?:質問|尋ね))",
    re.IGNORECASE,
)
_STANDING = re.compile(
    r"\b(?:always|never|from now on|in (?:the )?future|every time|whenever|going forward|"
    r"by default|prefers?)\b",
    re.IGNORECASE,
)
_CONVERSATION_ANYWHERE = re.compile(
    r"\b(?:in this|during this) (?:conversation|chat|session)\b|\bas (?:you )?requested\W*$|"
    r"^(?:now\s+)?(?:running|checking|searching|looking|reading|editing|updating|fetching|"
    r"installing|building|deploying|saving|recalling)\b[^.!?\n]{0,60}\bnow\W*$",
    re.IGNORECASE,
)


def chatter_reason(text: str) -> tuple[str, str] | None:
    """The (code suffix, description) of the chatter in `text`, or None."""
    stripped = text.strip()
    pieces = stripped.split()
    if pieces and all(_is_status(p) for p in pieces):
        return "status", "a status token"
    if _RECALL_ECHO.search(stripped):
        return "recall_echo", "recalled memories or a memory tool's reply"
    if _SYSTEM_PROMPT.search(stripped):
        return "system_prompt", "the agent's instructions or the agent talking about itself"
    if (_CONVERSATION.search(stripped) and not _STANDING.search(stripped)) or (
        _CONVERSATION_ANYWHERE.search(stripped)
    ):
        return "conversation", "narration of the conversation"
    if _is_timestamp(stripped):
        return "timestamp", "a date or time alone"
    if _is_identifier(stripped):
        return "identifier", "an identifier, path or URL alone"
    return None


def _is_status(piece: str) -> bool:
    match = _STATUS_TOKEN.match(piece)
    if not match:
        return False
    word = match.group(1)
    return "_" in word or word in _STATUS_WORDS


def _is_identifier(text: str) -> bool:
    body = _LABEL.sub("", text).strip().rstrip(".,;")
    if not body or any(c.isspace() for c in body):
        return False
    return bool(
        _URL.match(body) or _PATH.match(body) or _RELATIVE_PATH.match(body)
        or _FILE.match(body) or _IDENT.match(body)
    )


def _is_timestamp(text: str) -> bool:
    if not any(c.isdigit() for c in text):  # first: the date words' pass costs ~10 µs
        return False
    rest = _DATE_WORDS.sub(" ", text)
    has_shape = bool(_DATE_SHAPE.search(text)) or rest.strip() != text.strip()
    return has_shape and bool(_DATE_CHARS.match(rest))


class ChatterStage(BaseStage):
    """Refuses statements about the conversation, the agent or a tool."""

    name = "chatter"

    class Options(BaseModel):
        pass


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        found = chatter_reason(candidate.text)
        if found is None:
            return StageResult.passed()
        code, what = found
        return StageResult.reject(
            f"chatter.{code}",
            f"Rejected: {what}, not a fact about the person. Memory holds what stays true about "
            "the person and their work; save a statement such as \"Jam's repo is at "
            "github.com/jam/app\" or \"Jam prefers short answers\", never the conversation, the "
            "agent's own instructions or recalled memories.",
        )
