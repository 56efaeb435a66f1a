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
- `chatter.tool_output`: a tool's or the agent's working output in any of a dozen languages
  (D-199): an error or warning label opening the text ("Fehler: …", "Erro: …", "エラー："), a
  build, install or test outcome ("Compilación terminada con 3 advertencias", "ビルドに失敗
  しました", "테스트 12개 통과"), or the agent announcing a step on its working objects ("Ich
  führe jetzt die Tests aus", "Sto analizzando il repository", "Τώρα θα τρέξω τα τεστ").
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from jamgate_core import BaseStage, Candidate, StageContext, StageResult
from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._reported_asks import reported_question, reported_request
from jamgate_stages._reported_thanks import reported_thanks
from jamgate_stages._self_shapes import standing_elsewhere
from jamgate_stages._standing import ONSET, STANDING
from jamgate_stages._text import reading, wordset

_STATUS_WORDS = wordset(
    """DONE OK ACK NOOP PONG PING READY SUCCESS SUCCEEDED FAILED FAILURE ERROR TIMEOUT COMPLETE
    COMPLETED PENDING IDLE NULL NONE EOF EOT STOP END"""
)
_STATUS_TOKEN = lazy_compile(r"^[\[(<{]*([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)[\])>}]*[.!:]?$")

_URL = lazy_compile(r"^<?(?:[a-z][a-z0-9+.-]*://|www\.)\S+>?$", re.IGNORECASE)
_PATH = lazy_compile(r"^(?:~|\.{1,2})?(?:[/\\][\w.@+-]+)+[/\\]?$|^[A-Za-z]:\\\S*$")
_RELATIVE_PATH = lazy_compile(r"^[\w.@+-]+(?:/[\w.@+-]+)+/?$")
_FILE = lazy_compile(r"^[\w@+-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,5}$")
_IDENT = lazy_compile(
    r"^(?:(?=[0-9a-fA-F]*\d)[0-9a-fA-F]{7,64}|"
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|"
    r"[A-Za-z_]\w*(?:[._:]\w+)+|[a-z]+(?:[A-Z][a-z0-9]*)+|[a-z0-9]+(?:_[a-z0-9]+)+|"
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+)$"
)
_LABEL = lazy_compile(
    r"^(?:id|path|url|link|file|commit|sha|hash|ref|branch|pr|issue|email|ticket)\s*[:=#]\s*",
    re.IGNORECASE,
)

_DATE_WORDS = lazy_compile(
    r"\b(?:mon|tue|wed|thu|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday|jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|"
    r"april|june|july|august|september|october|november|december|am|pm|utc|gmt|z|t|est|edt|"
    r"cst|cdt|mst|mdt|pst|pdt|cet|cest|eet|eest|bst|ist|jst|kst|aest|timestamp|date|time|at|"
    r"on)\b",
    re.IGNORECASE,
)
_DATE_CHARS = lazy_compile(r"^[\d\s:\-/.,+T Z\[\]()]*$")
_DATE_SHAPE = lazy_compile(r"\d{1,4}[-/.:]\d{1,2}")

_RECALL_ECHO = lazy_compile(
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
_SYSTEM_PROMPT = lazy_compile(
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
_CONVERSATION = lazy_compile(
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
_STANDING = lazy_compile(
    r"\b(?:always|never|from now on|in (?:the )?future|every time|whenever|going forward|"
    r"by default|prefers?)\b",
    re.IGNORECASE,
)
# How the person wants to be treated, not the conversation: "User asked to be called Sam"
# (D-292; read only where `_CONVERSATION` matched).
_TREATMENT = lazy_compile(
    r"\b(?:asked|asks|requested|requests|wants|wanted)\s+(?:not\s+)?to\s+be\s+\w+ed\b",
    re.IGNORECASE,
)
# A request to cease a behaviour is standing by its verb: "User asked the agent to stop adding
# emojis", "… to no longer open pull requests" (D-371; read only where `_CONVERSATION` matched).
_CEASE = lazy_compile(
    r"\b(?:asked|asks|requested|requests|wants|wanted)\s+(?:(?:the\s+)?\w+\s+)?(?:to\s+"
    r"(?:stop|quit)\s+\w+ing|to\s+no\s+longer|never\s+to)\b",
    re.IGNORECASE,
)
_CONVERSATION_ANYWHERE = lazy_compile(
    r"\b(?:in this|during this) (?:conversation|chat|session)\b|\bas (?:you )?requested\W*$|"
    r"^(?:now\s+)?(?:running|checking|searching|looking|reading|editing|updating|fetching|"
    r"installing|building|deploying|saving|recalling)\b[^.!?\n]{0,60}\bnow\W*$",
    re.IGNORECASE,
)


_ERROR_LABEL = lazy_compile(
    r"^\W{0,3}(?:error|fatal|warning|exception|fehler|warnung|erreur|avertissement|"
    r"advertencia|errore|avviso|erro|aviso|ошибка|предупреждение|σφάλμα|προειδοποίηση|hata|"
    r"uyarı|błąd|ostrzeżenie|fout|waarschuwing|fel|varning|chyba|varování|помилка|lỗi|"
    r"kesalahan|त्रुटि|错误|錯誤|警告|エラー|오류|에러|경고|خطأ|تحذير|خطا|שגיאה|אזהרה)"
    r"(?:\[[\w-]+\])?\s*[:：]",
    re.IGNORECASE,
)
_BUILD = (r"(?:build|compilation|compile|tests?|install(?:ation)?|deploy(?:ment)?|migrations?|"
          r"kompilierung|bereitstellung|compilación|construcción|instalación|pruebas?|despliegue|"
          r"compilazione|installazione|compilação|instalação|testes|implantação|déploiement|"
          r"derleme|kurulum|testler|сборка|компиляция|установка|тесты|μεταγλώττιση|"
          r"εγκατάσταση|kompilacja|instalacja|testy)")
_OUTCOME = (r"(?:succeeded|failed|finished|completed|passed|done|successful|erfolgreich|"
            r"fehlgeschlagen|abgeschlossen|beendet|terminad[ao]|completad[ao]|fallid[ao]|"
            r"finalizad[ao]|exitos[ao]|completat[ao]|terminat[ao]|fallit[ao]|riuscit[ao]|"
            r"concluíd[ao]|falhou|terminée?|réussie?|échouée?|(?:başarıyla\s+)?tamamlandı|"
            r"başarısız|завершен[аоы]?|успешн\w*|не удалась|ολοκληρώθηκε|απέτυχε|"
            r"zakończon[aey]|nieudan[aey])")
_BUILD_OUTCOME = lazy_compile(
    rf"^\W{{0,3}}{_BUILD}\s+{_OUTCOME}\b|"
    r"(?:ビルド|コンパイル|インストール|テスト|デプロイ)(?:に|が|は)?(?:失敗|成功|完了)|"
    r"(?:构建|構建|编译|編譯|安装|安裝|测试|測試|部署)(?:失败|失敗|成功|完成)|"
    r"^正在(?:安装|安裝|运行|運行|构建|構建|编译|編譯|下载|下載)|"
    r"(?:빌드|컴파일|설치|테스트|배포)\s*(?:\d+\s*개\s*)?(?:통과|실패|성공|완료)",
    re.IGNORECASE,
)
# The agent announcing its next step, per language, and the working objects it acts on.
_NARRATION = lazy_compile(
    r"^(?:(?:now\s+)?i(?:'ll| will| am going to|'m going to)(?:\s+now)?|i'm now \w+ing|"
    r"ich (?:werde|\w+ jetzt)|jetzt (?:\w+ ich)|je vais|maintenant je|voy a|ahora (?:voy|\w+é)|"
    r"ora (?:\w+o)|vou agora|agora vou|τώρα θα|θα \w+ω τώρα|сейчас я|я сейчас|teraz|şimdi|"
    r"nu ga ik|ik ga nu)\b|"
    # A progressive ("I'm checking …", "Sto analizzando …") is a step only with "one moment".
    r"^(?:i'm \w+ing|estoy \w+(?:ando|iendo)|sto \w+(?:ando|endo)|estou \w+(?:ando|endo)|"
    r"je suis en train de)\b(?=.*\b(?:one moment|just a moment|a sec|un attimo|un momento|"
    r"um momento|un instant|einen moment|un segundo)\b)",
    re.IGNORECASE,
)
_WORK_OBJECTS = lazy_compile(
    r"\b(?:tests?|test suite|files?|repo(?:sitory)?|script|command|logs?|codebase|config|"
    r"build|dependencies|diff|output|tests|datei\w*|repository|skript|befehl|fichier|dépôt|"
    r"commande|archivo|repositorio|comando|codice|arquivo|repositório|αρχείο|τεστ|κώδικα|"
    r"файл\w*|тест\w*|репозитори\w*|скрипт|команд\w*|dosya\w*|testleri|bestand|plik\w*)\b",
    re.IGNORECASE,
)


# Shapes tools print whatever the language: tracebacks, pytest and npm lines, log lines, diffs,
# a shell prompt followed by its output.
_TOOL_SHAPE = lazy_compile(
    r"^(?:Traceback \(most recent call last\)|Successfully (?:built|installed|uninstalled|tagged|"
    r"created)\b|(?:Called|Calling) tool\b|Tool (?:result|output|call)\s*:|"
    r"(?:FAILED|PASSED|ERROR)\s+\S+::|npm (?:WARN|ERR!)|diff --git |@@ -\d|"
    r"\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?[^\]\n]*\]?\s+(?:TRACE|DEBUG|INFO|WARN|"
    r"WARNING|ERROR|FATAL|CRITICAL)\b|\$ \S[^\n]*\n)"
)


def _tool_output(text: str) -> bool:
    first = text.split("\n", 1)[0]
    return bool(_TOOL_SHAPE.match(text) or _ERROR_LABEL.match(first)
                or _BUILD_OUTCOME.search(first) or (not _STANDING.search(first) and
        _NARRATION.match(first) and _WORK_OBJECTS.search(first)))


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
    if ((_CONVERSATION.search(stripped) or reported_question(stripped)
         or reported_request(stripped)) and not _standing(stripped)
            and not _TREATMENT.search(stripped) and not _CEASE.search(stripped)) or (
        _CONVERSATION_ANYWHERE.search(stripped)
    ):
        return "conversation", "narration of the conversation"
    if reported_thanks(stripped):
        return "conversation", "the user's thanks or greeting, reported"
    if _tool_output(stripped):
        return "tool_output", "a tool's or the agent's working output"
    if _is_timestamp(stripped):
        return "timestamp", "a date or time alone"
    if _is_identifier(stripped):
        return "identifier", "an identifier, path or URL alone"
    return None


def _standing(text: str) -> bool:
    """A standing word in any language the standing tables hold: the conversation's "user
    asked" shapes in Spanish, German, French, Greek, Russian, Chinese and Japanese are exempted
    by their own languages' "always" as the English one is by "always", and by a standing
    rule's opening ("a partir de ahora", "с этого момента", "mulai hari ini"; D-375)."""
    return bool(_STANDING.search(text) or STANDING.search(text) or ONSET.search(text)
                or standing_elsewhere(text))


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
    stateless = True

    class Options(BaseModel):
        pass


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        found = chatter_reason(reading(candidate.text))
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
