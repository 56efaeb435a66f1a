"""Junk: fragments, template text, whole-text questions and untyped transient notes.

- `junk.placeholder`: unfilled template slots (`{{user_name}}`, `<name>`, `[INSERT FOOD]`,
  `${VAR}`), lorem ipsum, or nothing but test words ("foo bar", "testing testing").
- `junk.fragment`: fewer than two distinct meaningful words (filler, single Latin letters and
  bare numbers do not count), unless it is a short claim about someone: a pronoun or copula
  and one word ("I'm vegan", "Is vegetarian", "I was born in 1991", D-121). A passing state
  ("I'm hungry") stays a fragment.
- `junk.question`: the whole text asks rather than states, in any of a dozen languages. A
  `type` never exempts a question.
- `junk.one_off`: a request for this turn only (D-120): a one-off marker ("just this once",
  "for this answer", "diesmal", "cette fois", "esta vez", "bu seferlik", "αυτή τη φορά",
  "这次", "今回だけ"), or, without a standing word ("always", "immer", "siempre", "πάντα",
  "每次", "いつも" …), an imperative task ("translate", "übersetze", "traduis", "μετάφρασε"…)
  on something in this conversation ("this PDF", "the next paragraph", "diesen Artikel",
  "この", "这段"), on a new artifact ("write a regex") or for now ("… now", "tonight"). Since
  D-272 the request may also open with a polite frame or an imperative with its pronoun
  attached, whatever the verb (`_request_shapes`), its object may be a place in this
  conversation ("the table below", "line 42", "the attached contract"), and Turkish and Hindi
  requests may put the imperative last. Since D-422 the request frames of more languages
  (`_request_frames`: perfective imperatives, "תכתוב לי", "giúp mình", "ช่วย…", "tolong",
  "帮我", "…一下") count, unless a standing word of their languages makes a rule.
- `junk.transient`: present-moment state ("right now", live weather) saved without a `type`.
  Preferences about weather ("prefers cold weather", "runs when it's sunny") are durable.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from jamgate_core import BaseStage, Candidate, StageContext, StageResult
from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._question import is_question
from jamgate_stages._request_frames import table_request
from jamgate_stages._request_shapes import request_opening
from jamgate_stages._slot_phrases import slot_phrase
from jamgate_stages._standing import STANDING as _STANDING
from jamgate_stages._text import (
    FILLER,
    PLACEHOLDERS,
    HintedPattern,
    reading,
    sentences,
    tokens,
    wordset,
)

_SLOT_WORDS = (
    r"placeholder|insert|your|name|user|username|first[ _]?name|last[ _]?name|email|city|"
    r"date|value|food|drink|company|todo|tbd|fill|xxx"
)
_SLOTS = lazy_compile(
    r"\{\{[^{}]*\}\}|\{%[^%]*%\}|\$\{[A-Za-z_][A-Za-z0-9_]*\}|"
    rf"<\s*(?:{_SLOT_WORDS})(?:[ _-]\w+)*\s*>|<[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+>|"
    rf"\[\s*(?:[\w ]*\b)?(?:{_SLOT_WORDS})\b[\w ]*\]|\blorem ipsum\b",
    re.IGNORECASE,
)
_TEMPLATE_TALK = lazy_compile(
    r"\b(?:template|templates|jinja|handlebars|mustache|syntax|variable|variables|macro|"
    r"placeholders?|"
    r"interpolat\w*|f-strings?)\b",
    re.IGNORECASE,
)

_MARKERS = HintedPattern(lazy_compile(
    r"\b(?:right now|at the moment|at present|just now|for now|as of (?:right )?now|"
    r"as we speak|at this (?:very )?moment|currently feeling|ahora mismo|en este momento|"
    r"por ahora|en ce moment|à l'instant|pour l'instant|gerade jetzt|im moment|"
    r"im augenblick|αυτή τη στιγμή|προς το παρόν|прямо сейчас|в данный момент|"
    r"в настоящий момент)\b|此时此刻|今のところ|در حال حاضر",
    re.IGNORECASE,
), ("now", "moment", "present", "speak", "currently", "ahora", "instant", "jetzt", "augenblick"))
_TOKEN_MARKERS = frozenset({"الان", "فعلا"})
_WEATHER_NOW = lazy_compile(
    r"\b(?:it's|it’s|it is|its)\s+(?:\w+\s+)?(?:raining|snowing|drizzling|pouring|sunny|"
    r"cloudy|overcast|foggy|windy|humid|hot|cold|freezing|stormy|warm|chilly)\b",
    re.IGNORECASE,
)
_CONDITIONAL = lazy_compile(
    r"\b(?:when|whenever|if|unless|because|until|while|as long as)\s+(?:\w+\s+){0,2}$",
    re.IGNORECASE,
)
_HABITUAL = lazy_compile(
    r"\b(?:in (?:the )?(?:winter|summer|spring|autumn|fall|january|february|march|april|may|"
    r"june|july|august|september|october|november|december)|every|usually|always|often|"
    r"generally|normally|rarely|sometimes|most (?:days|mornings|years))\b",
    re.IGNORECASE,
)
_WEATHER_TODAY = lazy_compile(
    r"\b(?:weather|temperature|forecast)\b[^.!?\n]{0,40}?\b(?:today|tonight|right now|now|"
    r"currently|outside|this (?:morning|afternoon|evening))\b|"
    r"\b(?:today's|tonight's|current)\s+(?:weather|temperature|forecast)\b",
    re.IGNORECASE,
)
_TEMPERATURE = lazy_compile(r"-?\d{1,2}\s?°\s?[CF]\b")
# A standing rule ("Always check which branch is checked out right now before committing")
# uses present-moment words about the moment the rule applies, not about today.
_STANDING_RULE = lazy_compile(
    r"^(?:please\s+)?(?:always|never|don't|do not|whenever|every time|each time)\b",
    re.IGNORECASE,
)
_FILL_LATER = lazy_compile(
    r"^\W*(?:todo|tbd|fixme|xxx)\b\W*(?:(?:fill(?:\s+(?:in|out|this|it))?|add|write|complete|"
    r"update|later|here|in|this|it|me|details?)\W*)*$",
    re.IGNORECASE,
)
# Scripts written without spaces between words: one long token is several words.
_UNSPACED_RANGES: tuple[tuple[int, int], ...] = (
    (0x0E00, 0x0E7F),  # Thai
    (0x0E80, 0x0EFF),  # Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
)
_UNSPACED_MIN_LETTERS = 6
_NOW_WORDS = lazy_compile(
    r"\b(?:it's|it’s|it is|outside|now|currently|today|tonight)\b", re.IGNORECASE
)


# One-off markers: the request is for this turn only.
_ONE_OFF = HintedPattern(lazy_compile(
    r"\b(?:just|only)\s+(?:for\s+)?this\s+(?:once|time)\b|\bthis (?:one )?time only\b|"
    r"\b(?:for|in) (?:this|the next|your next) (?:answer|reply|response|message|question|task|"
    r"request|turn|one|chat|conversation|session|test|run)(?: only)?\b|\bonly for this\b|"
    r"\bthis time(?! (?:of|zone|last|around))\b|\bexception(?:ally)? this time\b|"
    r"\b(?:nur\s+)?(?:diesmal|dieses (?:eine )?mal|für diese (?:antwort|nachricht|anfrage))\b|"
    r"\bausnahmsweise\b|"
    r"\b(?:juste |seulement |rien que )?(?:pour )?cette fois\b|\bpour cette (?:réponse|fois)\b|"
    r"\bexceptionnellement\b|"
    r"\b(?:s[óo]lo |por |solamente )?esta vez\b|\bpara esta respuesta\b|\bexcepcionalmente\b|"
    r"\b(?:solo )?(?:per )?questa volta\b|\bstavolta\b|\bper questa risposta\b|"
    r"\beccezionalmente\b|"
    r"\b(?:s[óo] |somente |apenas )?(?:desta|dessa|esta|essa) vez\b|\bpara esta resposta\b|"
    r"\bbu sefer(?:lik|ine mahsus)?\b|\bbu kez(?:lik)?\b|\bsadece bu (?:cevap|yanıt|soru)|"
    r"(?<!\w)(?:μόνο )?αυτή τη φορά(?!\w)|(?<!\w)(?:μόνο )?για (?:αυτή|αυτήν) την απάντηση(?!\w)|"
    r"\b(?:на|в) этот раз\b|\btym razem\b|\btentokrát\b|\b(?:voor )?deze keer\b|"
    r"这次|這次|这一次|這一次|仅此一次|僅此一次|只此一次|这回|這回|今回だけ|今回は|今だけ|一度だけ|"
    r"この回答(?:だけ|では)|이번만|이번에는",
    re.IGNORECASE,
), (  # what each alternative an ASCII text can match must contain
    "this", "next", "dies", "ausnahmsweise", "cette", "exceptionnellement", "esta", "vez",
    "excepcionalmente", "questa", "stavolta", "eccezionalmente", "bu sefer", "bu kez",
    "sadece bu ", "tym razem", "deze keer",
))
# Imperative task verbs that open a request, per language (en de fr es it pt el ru).
_TASK = (
    r"summari[sz]e|translate|explain|rewrite|rephrase|reword|review|proofread|fix|correct|draft|"
    r"write|generate|create|make|give|show|list|convert|read|check|open|run|rename|refactor|"
    r"compose|reply|answer|tell|walk|help|format|shorten|expand|describe|compare|calculate|"
    r"compute|find|look|search|analy[sz]e|debug|edit|clean|polish|simplify|outline|brainstorm|"
    r"suggest|recommend|prepare|send|book|merge|deploy|push|sort|count|extract|"
    r"fass|fasse|übersetz|übersetze|erklär|erkläre|schreib|schreibe|formulier|formuliere|"
    r"korrigier|korrigiere|prüf|prüfe|überprüf|überprüfe|lies|mach|mache|gib|zeig|zeige|"
    r"erstell|erstelle|generier|generiere|beantworte|antworte|hilf|entwirf|verfass|verfasse|kürz|"
    r"kürze|"
    r"résume|résumez|traduis|traduisez|explique|expliquez|rédige|rédigez|écris|écrivez|relis|"
    r"relisez|corrige|corrigez|fais|faites|donne|donnez|montre|montrez|génère|générez|crée|"
    r"créez|vérifie|vérifiez|reformule|reformulez|réponds|répondez|aide|propose|prépare|analyse|"
    r"raccourcis|"
    r"resume|resumí|resúme\w*|traduce|traducí|tradúce\w*|explica|explicá|explíca\w*|"
    r"explica\w*|escribe|escribí|escríbe\w*|redacta|redactá|revisa|revisá|corregí|haz|hacé|"
    r"hazme|dame|muestra|mostrá|genera|generá|crea|creá|responde|respondé|respónde\w*|prepara|"
    r"analiza|ayúdame|ayudame|arma|armá|"
    r"riassumi|traduci|spiega|spiegami|scrivi|scrivimi|correggi|rivedi|rileggi|fai|fammi|dammi|"
    r"mostra|mostrami|crea|rispondi|analizza|aiutami|controlla|riscrivi|"
    r"resuma|traduz|traduza|explique|escreve|escreva|corrija|faz|faça|dá-me|mostre|gera|gere|"
    r"cria|crie|revise|responda|analisa|analise|reescreve|reescreva|"
    r"μετάφρασε|εξήγησε|εξήγησέ|γράψε|γράψτε|συνόψισε|σύνοψισε|διόρθωσε|φτιάξε|δώσε|δείξε|"
    r"απάντησε|κάνε|έλεγξε|ετοίμασε|ξαναγράψε|βοήθησέ|"
    r"переведи|объясни|напиши|сделай|дай|покажи|исправь|проверь|перескажи|сократи|ответь|"
    r"составь|подготовь|найди|помоги|"
    # since D-272: English "turn", Polish, Dutch, and more Russian, Spanish, Portuguese, Greek
    r"turn|przetłumacz|zrób|napisz|sprawdź|popraw|streść|wyjaśnij|przygotuj|znajdź|wyślij|"
    r"pokaż|przeczytaj|oblicz|vat|maak|schrijf|vertaal|controleer|stuur|herschrijf|verbeter|"
    r"bereken|придумай|посчитай|отправь|перепиши|haceme|hacé|mandá|revê|manda|envia|monta|"
    r"calcula|στείλε|υπολόγισε|"
    # since D-422: more English, Italian and Dutch task verbs
    r"rerun|plot|export|archive|forward|move|delete|remove|print|schedule|cancel|resize|restart|"
    r"calcola|ricalcola|stampa|annulla|cancella|plan|zet"
)
# What may come before the verb: politeness, "now", an address.
_LEAD = (
    r"(?:(?:please|pls|ok|okay|so|now|also|quickly|just|bitte|jetzt|mal|"
    r"s['’]il te plaît|s['’]il vous plaît|maintenant|por favor|ahora|agora|per favore|ora|adesso|"
    r"lütfen|şimdi|παρακαλώ|τώρα|пожалуйста|сейчас)[\s,]+)*"
)
_IMPERATIVE = lazy_compile(rf"^{_LEAD}(?:{_TASK})(?:[-’']\w+)?\b", re.IGNORECASE)
# Something of this conversation: "this PDF", "the next paragraph", "diesen Artikel", "ce mail".
_DEICTIC = lazy_compile(
    r"\b(?:this|these|the (?:next|following|attached|above|below|previous|last|"
    r"latest|current)|my (?:last|previous|latest) (?:message|email|mail|reply))\s+(\w+)|"
    r"\bthe\s+(\w+)\s+(?:above|below|i (?:just )?(?:pasted|sent|attached|shared))\b|"
    r"\b(?:dies|diese|diesen|dieser|dieses|diesem|das|den|die) (?:nächsten?|folgenden?|obigen?|"
    r"angehängten?|letzten?)\s+(\w+)|\b(?:dies|diese|diesen|dieser|dieses|diesem)\s+(\w+)|"
    r"\b(?:ce|cet|cette|ces|le prochain|la prochaine|le paragraphe suivant)\s+(\w+)|"
    r"\b(?:este|esta|estos|estas|ese|esa|esos|esas|el siguiente|la siguiente)\s+(\w+)|"
    r"\b(?:questo|questa|questi|queste|quel|quella|il prossimo|la prossima)\s+(\w+)|"
    r"\b(?:este|esta|esse|essa|isto|isso|o próximo|a próxima)\s+(\w+)|"
    r"\b(?:bu|şu|bunu|şunu|bunları)\s+(\w+)|"
    r"(?<!\w)(?:αυτό|αυτή|αυτόν|αυτά|αυτές|αυτούς|το παρακάτω|την παρακάτω|το επόμενο|"
    r"την επόμενη)(?:\s+(?:το|τη|την|τα|τις|τους|τον|ο|η))?\s+(\w+)|"
    r"\b(?:этот|эту|это|эти|этого|этим|этой|этих|этом|следующий|следующую)\s+(?:\w+\s+)?(\w+)|"
    r"\b(?:ten|tę|tego|tej|tych|tym|deze|dit)\s+(\w+)|"
    # the place of the thing in this conversation (D-272): "the table below", "na linha 12"
    r"\b(?:above|below|attached|ci-dessous|ci-dessus|ci-joint|unten|oben|angehängt\w*|arriba|"
    r"abajo|adjunto|sotto|sopra|allegat\w|acima|abaixo|anexo|poniżej|powyżej|załączon\w*|"
    r"hieronder|hierboven|bijgevoegd\w*|ниже|выше|приложенн\w*|aşağıdaki|yukarıdaki|ekteki)"
    r"\b()|(?<!\w)(?:παρακάτω|συνημμένο)(?!\w)()|"
    r"\b(?:line|linha|línea|ligne|riga|zeile|regel|строк[аеиу]|linii|linijce|satır)\s+\d+()",
    re.IGNORECASE,
)
# Things that outlive the conversation: "this repo" names a project, not a request's object.
_DURABLE_OBJECTS = wordset(
    """repo repos repository repositories project projects codebase monorepo team company app
    service services workspace org organization organisation product site website server
    cluster database library package family household user account
    projekt projekte team firma unternehmen projet équipe entreprise proyecto equipo empresa
    progetto squadra azienda projeto equipe έργο ομάδα εταιρεία proje ekip şirket проект
    команда компания"""
)
# A new artifact: "write a regex", "give me five ideas", "rédige-moi une réponse".
_ARTIFACT = lazy_compile(
    rf"^{_LEAD}(?:{_TASK})(?:[-’']\w+)?\s+(?:(?:me|mir|moi|me|mi|μου|για μένα)\s+)?"
    r"(?:a|an|some|two|three|four|five|six|ten|quick|ein|eine|einen|un|une|uno|una|um|uma|een|"
    r"ένα|μια|ένας)\b",
    re.IGNORECASE,
)
# A new artifact after a request's opening: "(could you) draft a reply", "(hazme) un resumen".
_NEW_ARTIFACT = lazy_compile(
    r"^(?:\w+(?:[-’']\w+)?\s+)?(?:(?:me|mir|moi|mi|μου)\s+)?(?:a|an|some|two|three|four|five|"
    r"six|ten|quick|ein|eine|einen|un|une|uno|una|um|uma|een|ένα|μια|ένας)\b",
    re.IGNORECASE,
)
# Words of a standing format ("give me a summary first"): an artifact of every answer.
_STYLE = lazy_compile(
    r"\b(?:first|then|at the (?:start|end|top|bottom|beginning)|before|after|instead|"
    r"rather than|for (?:long|short)|in every)\b",
    re.IGNORECASE,
)
_TR_DURABLE = ("proje", "repo", "depo", "ekip", "şirket", "kod taban")
# The moment of the request: "… now", "… tonight", "so far".
_NOW_REQUEST = lazy_compile(
    r"\b(?:now|right away|asap|today|tonight|tomorrow|yesterday|so far|jetzt|sofort|heute|"
    r"morgen|maintenant|aujourd['’]hui|demain|ce soir|ahora|hoy|mañana|esta noche|adesso|oggi|"
    r"domani|stasera|agora|hoje|amanhã|şimdi|bugün|yarın|teraz|сейчас|сегодня|завтра|"
    r"vandaag|vanmiddag|vanavond|nu|"
    # what was just given in this conversation (D-422): "que je viens de coller"
    r"(?:je|tu) viens de|acabo de|acabas de|acabei de|ho appena|hai appena|gerade eben|"
    r"just (?:pasted|sent|shared|uploaded|attached|wrote))\b|"
    r"(?<!\w)(?:τώρα|σήμερα|αύριο|απόψε)(?!\w)",
    re.IGNORECASE,
)
# Turkish puts the imperative last; Chinese, Japanese and Korean mark a request at either end.
_TR_REQUEST = lazy_compile(
    r"\b(?:bu|şu|bunu|şunu|bunları|yukarıdaki|aşağıdaki)\s+(\w+).*\b(?:çevir|yaz|anlat|açıkla|"
    r"özetle|düzelt|ver|göster|hazırla|oluştur|incele|oku|bul|hesapla|kontrol et|gözden geçir|"
    r"aktar|dışa aktar|dök|gönder|sil|düzenle|kaydet)(?:in|iniz|ir misin)?\W*$",
    re.IGNORECASE,
)
# Arabic, Persian and Hebrew put the imperative first and the demonstrative after it.
_RTL_REQUEST = lazy_compile(
    r"^(?:من فضلك\s+|رجاءً?\s+|لطفا\s+|בבקשה\s+)?(?:ترجم|لخص|لخّص|اكتب|اشرح|صحح|راجع|أعد صياغة|"
    r"ترجمه کن|خلاصه کن|بنویس|توضیح بده|תרגם|סכם|כתוב|הסבר|תקן)\s+(?:لي\s+)?"
    r"(?:هذه|هذا|هذي|ذلك|تلك|این|آن|את\s+ה|הזה|הזאת|ה|.{0,40}?(?:المرفق|المرفقة|أدناه|"
    r"(?<!\w)(?:هذه|هذا|هذي)(?!\w)))"
)
# Turkish and Hindi put the imperative last: a new artifact ("bir SQL sorgusu yaz") or a thing
# of this conversation ("इस फ़ंक्शन के लिए … लिखो", "नीचे वाले कोड को … कर दो") before it (D-272).
_TR_VERB_LAST = lazy_compile(
    r"(?<!\w)(?:yaz|çevir|hazırla|oluştur|bul|hesapla|çiz|öner)(?:ın|in|ınız|iniz)?\W*$",
    re.IGNORECASE,
)
_HI_REQUEST = lazy_compile(r"^(?:इस|इन|यह|ये|नीचे|ऊपर)(?!\S).*(?:ो|ाओ|दो|दीजिए|दीजिये)[।\s]*$")


def _verb_last_request(text: str) -> bool:
    """A Turkish or Hindi request with its imperative last (see above); only the last few
    characters are searched for the verb."""
    if _HI_REQUEST.match(text):
        return True
    tail = text[-24:]
    verb = _TR_VERB_LAST.search(tail)
    return verb is not None and " bir " in f" {text[:len(text) - len(tail) + verb.start()].lower()}"
_CJK_REQUEST = lazy_compile(
    r"^(?:请|請|帮我|幫我|给我|給我|替我|给|給|把)(?:帮我|幫我)?(?:把)?.{0,4}?(?:这|這|此|下面|以下)|"
    r"^.{0,8}?(?:この|その|これを|それを|以下の|下の).*(?:して|て|ください|下さい|くれ|ほしい|"
    r"お願い)\W*$|"
    r"(?:^|\s)(?:이|그|이거|이것|이번)\s.*(?:줘|주세요|해줘|해 줘)\W*$",
)


def is_one_off(text: str) -> bool:
    """A request for this turn only, not a standing preference (see the module docstring)."""
    stripped = text.strip()
    if _ONE_OFF.search(stripped):
        return True
    if _STANDING.search(stripped):
        return False
    turkish = _TR_REQUEST.search(stripped)
    if turkish and not turkish.group(1).lower().startswith(_TR_DURABLE):
        return True
    if _CJK_REQUEST.search(stripped) or _RTL_REQUEST.search(stripped) or (
            not stripped.isascii() and _verb_last_request(stripped)):
        return True
    if table_request(stripped):  # the request frames of more languages (D-422)
        return True
    if _IMPERATIVE.match(stripped):
        if _NOW_REQUEST.search(stripped) or (
            _ARTIFACT.match(stripped) and not _STYLE.search(stripped)
        ):
            return True
        return _of_this_turn(stripped)
    start = request_opening(stripped)  # a polite frame or an enclitic imperative (D-272)
    if start is None:
        return False
    rest = stripped[start:].lstrip()
    return bool(_NOW_REQUEST.search(rest)) or (
        bool(_NEW_ARTIFACT.match(rest)) and not _STYLE.search(rest)) or _of_this_turn(rest)


def _of_this_turn(text: str) -> bool:
    """Whether the request's object is a thing of this conversation: "this PDF", "the table
    below", "line 12" (not "this repo": a project outlives the turn)."""
    for match in _DEICTIC.finditer(text):
        noun = next((g for g in match.groups() if g), None)
        if noun is None:  # a place in this conversation: "below", "line 12"
            return True
        if noun.lower() not in _DURABLE_OBJECTS:
            return True
    return False


# A short claim: a pronoun or copula before its one word ("I'm vegan", "Is vegetarian").
_CLAIM_OPENING = lazy_compile(
    r"^(?:(?:i|we|he|she|they|(?:the )?user)(?:['’](?:m|re|s|ve|d)\b|\s+(?:am|is|are|was|were|"
    r"have|has|had)\b)|(?:is|am|was|has|have)\b|ich\b|bin\b|je\b|j['’]|soy\b|estoy\b|tengo\b|"
    r"sono\b|ho\b|sou\b|estou\b|tenho\b|είμαι|έχω|εγώ)",
    re.IGNORECASE,
)
_CLAIM_WORDS = wordset(
    """i m re s ve d am is are was were have has had we he she they user the ich bin je j suis ai
    soy estoy tengo sono ho sou estou tenho είμαι έχω εγώ"""
)
# Passing states: "I'm hungry" is not a lasting fact, however short.
_STATES = wordset(
    """hungry thirsty tired sleepy bored busy fine ok okay good great sad happy stressed
    exhausted cold hot late back here done ready sick ill angry upset excited nervous free
    away off home müde hungrig krank fatigué fatiguée malade cansado cansada enfermo enferma
    stanco stanca κουρασμένος κουρασμένη"""
)


def is_short_claim(text: str) -> bool:
    """A pronoun or copula and one more word: a short claim, not a fragment."""
    stripped = text.strip()
    if not _CLAIM_OPENING.match(stripped):
        return False
    rest = {t for t in tokens(stripped) if t not in _CLAIM_WORDS}
    content = {t for t in rest if t not in FILLER and t not in PLACEHOLDERS}
    if content & _STATES:
        return False
    return any(t.isalpha() and len(t) > 1 for t in content) or any(
        t.isdigit() and len(t) >= 2 for t in content
    )


def is_transient(text: str) -> bool:
    """Present-moment state or live weather (not preferences about weather)."""
    if _STANDING_RULE.match(text.strip()):
        return False
    if _MARKERS.search(text):
        return True
    if _TOKEN_MARKERS.intersection(tokens(text)):
        # a bare "now" (الان) before the person's home or job said whole is its change, not
        # passing state: "الان در اسنپ کار می‌کنم" (D-351)
        return slot_phrase(text) is None
    for match in _WEATHER_NOW.finditer(text):
        sentence = next((s for s in sentences(text) if match.group() in s), text)  # rare path
        if not _CONDITIONAL.search(text[: match.start()]) and not _HABITUAL.search(sentence):
            return True
    if _WEATHER_TODAY.search(text):
        return True
    if not _TEMPERATURE.search(text):
        return False
    return any(_TEMPERATURE.search(s) and _NOW_WORDS.search(s) for s in sentences(text))


def placeholder_reason(text: str) -> str | None:
    """Why `text` is template or test text, or None."""
    slots = _SLOTS.findall(text)
    if slots and not _TEMPLATE_TALK.search(_SLOTS.sub(" ", text)):
        return "an unfilled template slot or lorem ipsum"
    if _FILL_LATER.search(text):
        return "a to-do note to fill in later"
    found = tokens(text)
    if found and any(t in PLACEHOLDERS for t in found) and all(
        t in PLACEHOLDERS or t in FILLER for t in found
    ):
        return "test or placeholder words only"
    return None


def meaningful_words(text: str) -> set[str]:
    """Distinct words that can carry a claim: no filler, no test words, no lone Latin letter,
    no bare number."""
    return {
        t for t in tokens(text)
        if t not in FILLER and t not in PLACEHOLDERS and any(c.isalpha() for c in t)
        and not (len(t) == 1 and t.isascii())
    }


def _unspaced(token: str) -> bool:
    return len(token) >= _UNSPACED_MIN_LETTERS and all(
        any(low <= ord(c) <= high for low, high in _UNSPACED_RANGES) for c in token
    )


def word_count(text: str) -> int:
    """How many meaningful words `text` holds; a long run of Thai, Lao, Khmer or Myanmar
    (written without spaces) counts as two."""
    found = meaningful_words(text)
    return len(found) + sum(1 for t in found if _unspaced(t))


class JunkStage(BaseStage):
    """Refuses fragments, placeholders, questions, one-off requests and untyped transient
    notes."""

    name = "junk"
    stateless = True

    class Options(BaseModel):
        questions: bool = True
        one_off: bool = True
        transient: bool = True


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        text = reading(candidate.text)
        why = placeholder_reason(text)
        if why:
            return StageResult.reject(
                "junk.placeholder",
                f"Rejected: {why}, not a fact. Save the real statement with the values filled "
                "in, e.g. \"Jam's favourite food is moussaka\".",
            )
        if self.options.questions and is_question(text):
            return StageResult.reject(
                "junk.question",
                "Rejected: this is a question, not a fact. Questions ask memory; they are not "
                "memory. If the ANSWER is worth remembering, save the answer as a statement.",
            )
        if self.options.one_off and is_one_off(text):
            return StageResult.reject(
                "junk.one_off",
                "Rejected: a request for this turn only (\"just this once\", \"translate this\"), "
                "not a standing preference. Do what it asks now and save nothing; it never "
                "replaces a standing preference. If the user wants it every time, save the "
                "standing rule, e.g. \"Always answer in bullet points\".",
            )
        if self.options.transient and candidate.type is None and is_transient(text):
            return StageResult.reject(
                "junk.transient",
                "Rejected: transient, not durable; this describes right now, not a lasting "
                "fact. If it is worth keeping for a few hours, save it again with type "
                "\"state\" so it expires on its own; otherwise it does not belong in memory.",
            )
        if word_count(text) < 2 and not is_short_claim(text):
            return StageResult.reject(
                "junk.fragment",
                "Rejected: not a statement. A memory needs at least two meaningful words making "
                "a claim about the person (got a fragment, a number or filler). Save a complete "
                "sentence, e.g. \"Jam lives in Athens\".",
            )
        return StageResult.passed()
