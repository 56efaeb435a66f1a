"""Source strictness: an agent's own inference needs more evidence than the user's word.

For the configured weak sources (`agent-inferred` by default), four refusals; the same text
passes when the user said it (`user-explicit`, `user-confirmed`), where "I" is the user:
- `source.assistant_self`: the assistant about itself (D-122): "I am an AI language model",
  "As an assistant, …", "Als KI-Modell …", "作为AI助手", "my training data", "Self-note: I tend
  to over-explain", or an "I" that talks about "the user".
- `source.second_person`: addressed to the user instead of stating a fact about them ("You
  prefer …", "Based on your background, you might …", "Du könntest …", "Você parece …"); a
  standing instruction ("You should always …") passes.
- `source.general_knowledge`: a general truth about the world, not about the person or their
  work ("Water boils at 100 degrees", "Python is a programming language", "A 503 status code
  means …", "Le swahili est une langue bantoue", "东京是日本的首都"). `project` saves are
  exempt.
- `source.speculative`: a hedged guess ("User probably likes jazz", "Vielleicht plant die
  Nutzerin …", "用户可能…"): the hallucinated-profile failure of the mem0 #4573 audit.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from jamgate_core import BaseStage, Candidate, Source, StageContext, StageResult
from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._self_shapes import addresses_user, speaks_as_assistant, standing_elsewhere
from jamgate_stages._standing import STANDING
from jamgate_stages._text import reading
from jamgate_stages._user_words import OTHER_FORMS, SUBJECT, UNSPACED, alternation

_USER_WORDS = alternation(SUBJECT | OTHER_FORMS, proclitics=True)  # the shared table (D-386)
_PERSON = lazy_compile(
    r"\b(?:i|i'm|i've|me|my|mine|we|our|us|you|your|he|she|his|her|him|they|their|them|user|"
    r"user's|users|jam|jam's|person|people's)\b|\b\w+['’]s\b|^(?:always|never|don't|do not|"
    r"please|prefer|use|avoid|keep|answer|reply|respond|write|run)\b|"
    # The same in de fr es it pt el ru tr, then unspaced scripts.
    r"\b(?:ich|mein\w*|wir|unser\w*|du|dein\w*|er|sie|je|j['’]|mon|ma|mes|nous|notre|nos|tu|ton|"
    r"ta|tes|vous|votre|il|elle|yo|mis?|nosotros|nuestr\w+|él|ella|io|mio|mia|miei|noi|nostr\w+|"
    r"lui|lei|eu|meu|minha|nós|noss\w+|ele|ela|você|ben|benim|biz|bizim|"
    r"team|équipe|equipo|squadra|equipe)\b|(?<!\w)(?:εγώ|μου|μας|εμείς|εσύ|σου|σας|"
    rf"я|мой|моя|мы|наш\w*|{_USER_WORDS})(?!\w)|我|私|僕|저는|나는|"
    + "|".join(UNSPACED),
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
# Kinds of things a definition names, in de fr es it pt el nl (the English ones are above).
_KINDS = (
    r"(?:sprache|langue|lengua|idioma|lingua|língua|γλώσσα|taal|bibliothek|bibliothèque|"
    r"biblioteca|βιβλιοθήκη|datenbank|protokoll|protocole|protocolo|protocollo|πρωτόκολλο|"
    r"werkzeug|outil|herramienta|strumento|ferramenta|εργαλείο|logiciel|stadt|ville|ciudad|"
    r"città|cidade|πόλη|stad|land|pays|país|paese|χώρα|fluss|fleuve|rivière|río|fiume|rio|"
    r"ποταμός|berg|montagne|montaña|montagna|montanha|βουνό|instrument|instrumento|όργανο|"
    r"algorithmus|algorithme|algoritmo|αλγόριθμος|erweiterung|extension|extensión|estensione|"
    r"extensão|επέκταση|feiertag|fête|fiesta|festa|γιορτή|gericht|plat|plato|piatto|prato|"
    r"πιάτο|language|framework|library|database|protocol|tool|software)\w*\b"
)
_GENERAL = lazy_compile(
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
    # An HTTP status in any language: "HTTP 404 表示…", "Код 503 означает…".
    r"(?:\bhttp\b|\bstatus\b|\bcode\b|状态码|ステータス|код|κωδικός)\D{0,12}\b[1-5]\d\d\b|"
    r"\b[1-5]\d\d\b[^.;\d]{0,30}?(?:表示|意味|\bmeans\b|\bindicates\b|\bbedeutet\b|"
    r"\bsignifie\b|\bsignifica\b|σημαίνει|означает)|"
    # Capital cities and superlatives of the world, in several languages.
    r"\b(?:hauptstadt|capitale|capital|πρωτεύουσα|столица\w*|stolic\w+|başkent\w*|ibu kota|"
    r"fővárosa|hlavní město)\b|首都|เมืองหลวง|پایتخت|عاصمة|בירת|"
    r"\b(?:höchste|größte|längste|tiefste|plus (?:haut|grand|long|profond)e?|más (?:alto|grande|"
    r"largo|profundo|poblada)|più (?:alto|grande|lungo|profondo)|mais (?:alto|grande|longo|"
    r"profundo))\b|самое глубокое|самая длинная|самый большой|najdłuższ\w+|największ\w+|"
    r"legnagyobb|ביותר|世界最|"
    # "X is a <kind>" in de fr es it pt el nl, and zh 是一种.
    rf"^[\w .+#'’-]{{1,40}}?\s+(?:ist|est|es|è|é|είναι|is)\s+(?:ein|eine|un|une|uno|una|um|uma|"
    rf"ένα|μια|ένας|een)\s+(?:[\w-]+\s+){{0,3}}?{_KINDS}|"
    r"是一种|是一種|是一个\S{0,8}(?:语言|框架|库|协议|数据库|工具)|"
    r"\b(?:was|were|wurde|fue|foi|a été|è stato|è stata)\s+(?:\w+\s+){0,4}?(?:created|founded|"
    r"invented|released|veröffentlicht|gegründet|erfunden|creado|creada|fundado|fundada|"
    r"inventado|criado|criada|créé|créée|fondé|fondée|inventé|creato|creata|fondato|fondata|"
    r"inventato)\b|"
    # A generalisation about a group: "Software developers often use Git".
    r"^(?:most\s+|many\s+)?(?:\w+\s+)?(?:developers|engineers|programmers|companies|teams|"
    r"people|humans|scientists|doctors)\s+(?:often|usually|generally|typically|commonly|"
    r"tend to)\b",
    re.IGNORECASE,
)
# A hedge on the main claim: near the start ("User probably likes jazz", "It seems the user
# prefers Vim"), not inside a reported belief ("Nate believes X is probably the best").
_HEDGE = lazy_compile(
    r"^(?:\S+\s+){0,3}?(?:probably|possibly|perhaps|maybe|presumably|likely|might|may be|"
    r"could be|seems? to|seemingly|apparently|"
    # de fr es it pt el ru tr pl ro vi cs hu
    r"vermutlich|wahrscheinlich|vielleicht|möglicherweise|eventuell|anscheinend|"
    r"peut-être|probablement|sans doute|apparemment|quizás?|tal vez|probablemente|"
    r"posiblemente|al parecer|forse|probabilmente|forse|talvez|provavelmente|possivelmente|"
    r"ίσως|πιθανόν|πιθανώς|μάλλον|ενδεχομένως|возможно|вероятно|наверное|похоже|"
    r"muhtemelen|belki|galiba|büyük ihtimalle|prawdopodobnie|chyba|probabil|có lẽ|"
    r"pravděpodobně|možná|talán|valószínűleg|можливо|мабуть|ربما|احتمالاً|شاید|ייתכן|אולי|"
    r"아마)(?!\w)|"
    r"^(?:it (?:seems|appears|looks like)|i (?:think|guess|assume|suspect|believe)|"
    r"not sure|it is possible|il (?:est possible|semble)|es posible|parece que|"
    r"è possibile|sembra che|pare che|é possível|parece que|poate că|es ist möglich|"
    r"es scheint)\b|"
    r"^\S{0,10}?(?:可能|也许|也許|或许|或許|大概|似乎|好像|もしかすると|たぶん|おそらく)|"
    r"(?:かもしれない|のかもしれない|と思われる|らしい|것 같다|것 같아|듯하다)[。.]?$",
    re.IGNORECASE,
)
# The assistant about itself: its nature, its limits, its habits (agent-inferred only).
_AI = (
    r"(?:an?\s+|the\s+)?(?:\w+\s+){0,2}?(?:ai|a\.i\.|llm|(?:large\s+)?language\s+model|chatbot|"
    r"ai\s+model|(?:ai|virtual|digital|coding|helpful|cli)\s+(?:assistant|agent)|"
    r"assistant(?!\s+(?:professor|manager|director|editor|coach|teacher|nurse)))\b"
)
_ASSISTANT_SELF = lazy_compile(
    rf"^(?:i am|i'm|being)\s+{_AI}|(?:^|[.;]\s+)as\s+{_AI}|\bi am\s+\w+,\s+an?\s+{_AI}|"
    r"\b(?:i am|i'm|as|soy|je suis|ich bin|sono|sou|eu sou|είμαι|я)\s+(?:claude|chatgpt|gpt-?\d*|"
    r"gemini|copilot|cursor|codex|bard|llama|mistral)\b|"
    r"\b(?:self[- ](?:knowledge|note|reflection|reminder)|note to self|notes? (?:to|for) myself|"
    r"reminder (?:to|for) myself|memo to self)\b|lembrete para mim|nota para m[íi]|"
    r"note (?:à|pour) moi(?:-même)?|notiz (?:an|für) mich|"
    r"\bmy (?:training data|training cutoff|knowledge cutoff|context window|system prompt|"
    r"guidelines|usage policies)\b|\bknowledge cutoff\b|\bi'?m running (?:as|with|in)\b|"
    r"\bi (?:don't|do not|can't|cannot|can not|am unable to|am not able to)\s+(?:\w+\s+){0,3}?"
    r"(?:remember|keep|retain|access|browse|see|view|make|book|call|send|run|execute|listen|play)"
    r"\b.*\b(?:you|your|previous conversations|earlier sessions|between sessions|the internet|"
    r"real[- ]time)\b|"
    r"\bmy (?:answers|replies|responses|explanations|code snippets|suggestions)\b|"
    r"\b(?:i|me|myself),?\s*[(,]?\s*(?:the|as the|as an?)\s+(?:ai|assistant|agent|coding agent|"
    r"model|bot)\b|"
    r"\bi (?:tend to )?(?:over-explain|apologi[sz]e too much)\b|"
    r"\bi (?:tend to|usually|often|always|sometimes)\s+(?:\w+\s+){0,2}?(?:answers|replies|"
    r"responses|explanations|code comments)\b|"
    r"\bi (?:answered|replied|responded)\b|\b(?:earlier )?in this session\b|"
    # The same in other languages: "as / I am" and an AI word.
    r"\b(?:als|en tant qu['’]|como|come|ως|как|jako|ca|bilang|olarak)\s+(?:\w+\s+){0,2}?"
    r"(?:ki|ia|ai|ии|sprachmodell|ki-\w+|modèle de langage|modelo de lenguaje|modello linguistico|"
    r"modelo de (?:ia|linguagem)|γλωσσικό μοντέλο|языковая модель|мовна модель|jazykový model|"
    r"езиков модел|asistent\w*|assistente|assistant|βοηθός|ассистент|асистент)\b|"
    r"\b(?:ich bin|je suis|soy|sono|sou|eu sou|είμαι|я|jestem|jsem|olen)\s+(?:\w+\s+){0,3}?"
    r"(?:ki|ia|ai|ии|ki-\w+|sprachmodell|assistant|asistente|assistente|modèle de langage|"
    r"modelo de (?:ia|lenguaje|linguagem)|modello linguistico|μοντέλο|βοηθός|языковая|"
    r"ассистент|asystent\w*|tekoäly\w*)\b|"
    r"作为(?:一个)?(?:AI|人工智能|语言模型)|我是(?:一个)?(?:AI|人工智能)|AI助手|语言模型|"
    r"私はAI|AIアシスタント|言語モデル|AI ?모델|AI ?어시스턴트|언어 ?모델|인공지능이|"
    r"yapay zek[aâ]|هوش مصنوعی|ذكاء اصطناعي|مساعد ذكي|מודל שפה|mesterséges intelligencia|"
    r"model bahasa|model językowy|jazykový model|мовна модель|языковая модель|"
    r"(?<!\w)(?:τεχνητής νοημοσύνης|γλωσσικό μοντέλο)(?!\w)|"
    r"एआई के रूप में|मैं (?:एक )?(?:एआई|AI)|भाषा मॉडल|कृत्रिम बुद्धि",
    re.IGNORECASE,
)
# An "I" that talks about the user is the assistant.
_I_ABOUT_USER = lazy_compile(
    r"\b(?:i|i'm|i'll|i've|my|me|myself)\b.*\b(?:the user|this user|user's)\b|"
    r"\b(?:the user|this user)\b.*\b(?:i|i'll|i've|my|me)\b",
    re.IGNORECASE,
)
# Addressed to the user: "You prefer …", "Based on your background, you might …".
_SECOND_PERSON = lazy_compile(
    r"^(?:you|your|you're|you've|you'd|you'll|yours)\b|"
    r"^(?:based on|given|since|because|from|judging by|as|considering)\s+(?:\w+\s+){0,2}?"
    r"(?:you|your)\b|"
    r"^(?:du|dein\w*|dir|dich|tu|ton|ta|tes|vous|votre|vos|tú|usted|te|você|vocês|voce|"
    r"εσύ|εσείς|bạn|คุณ|вы|ты|sen|siz)\b|"
    r"^(?:deberías|podrías|dovresti|potresti|deverias|devias|poderias|θα μπορούσες|θα έπρεπε|"
    r"πρέπει να|solltest|könntest|devrais|pourrais|devriez|pourriez)(?!\w)",
    re.IGNORECASE,
)
# A standing instruction spoken to the agent ("You should always answer in Greek", "You are
# allowed to push to main", "The user asked me to …").
_INSTRUCTION = lazy_compile(
    r"\b(?:always|never|every time|whenever|from now on|by default|must|immer|nie|toujours|"
    r"jamais|siempre|nunca|sempre|mai)\b|(?<!\w)(?:πάντα|ποτέ)(?!\w)|"
    r"^you\s+(?:are\s+(?:not\s+)?(?:allowed|permitted|free)|may(?!\s+want)|can(?:not|'t)?|"
    r"should(?:n't| not)|don't|do not|need to|have to)\b|"
    r"(?<!\byou )(?<!you've )(?<!you have )"
    r"\b(?:asked|wants|told|wanted|expects|allowed|prefers that)\s+(?:me|us|you)\b",
    re.IGNORECASE,
)


def _strict_default() -> list[Source]:
    return ["agent-inferred"]


def is_general_knowledge(text: str) -> bool:
    """A statement about the world with no person in it."""
    return not _PERSON.search(text) and bool(_GENERAL.search(text.strip()))


def is_assistant_self(text: str) -> bool:
    """The assistant speaking about itself (its nature, limits or habits)."""
    stripped = text.strip()
    if _ASSISTANT_SELF.search(stripped) or speaks_as_assistant(stripped):
        return True
    return bool(_I_ABOUT_USER.search(stripped)) and not _INSTRUCTION.search(stripped)


def is_second_person(text: str) -> bool:
    """Addressed to the user rather than stating a fact about them; a standing instruction to
    the agent is not."""
    stripped = text.strip()
    if _INSTRUCTION.search(stripped) or standing_elsewhere(stripped):
        return False
    if _SECOND_PERSON.search(stripped):
        return True
    return addresses_user(stripped) and not STANDING.search(stripped)


def is_speculative(text: str) -> bool:
    """A hedged guess rather than an observation."""
    return bool(_HEDGE.search(text))


class SourceStrictnessStage(BaseStage):
    """Holds weakly sourced saves to a higher standard."""

    name = "source-strictness"
    stateless = True

    class Options(BaseModel):
        strict_sources: list[Source] = Field(default_factory=_strict_default)
        general_knowledge: bool = True
        speculation: bool = True
        assistant_self: bool = True
        second_person: bool = True


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        if candidate.source not in self.options.strict_sources:
            return StageResult.passed()
        text = reading(candidate.text)
        if self.options.speculation and is_speculative(text):
            return StageResult.reject(
                "source.speculative",
                "Rejected: a guess, not an observation (hedged words such as \"probably\", "
                "\"seems\", \"might\"). Ask the user, then save what they confirm with source "
                "\"user-confirmed\".",
            )
        if self.options.assistant_self and is_assistant_self(text):
            return StageResult.reject(
                "source.assistant_self",
                "Rejected: the assistant talking about itself (its nature, limits or habits), "
                "not a fact about the person. Memory is for what is true of the user and their "
                "work. If the user told you this about themself, save it again with source "
                "\"user-explicit\", in their words.",
            )
        if self.options.second_person and is_second_person(text):
            return StageResult.reject(
                "source.second_person",
                "Rejected: addressed to the user (\"you …\") instead of stating a fact about "
                "them. Save what you know as a statement about the user, e.g. \"User prefers "
                "dark mode\", and only what they said or confirmed; a suggestion is not a fact.",
            )
        if (self.options.general_knowledge and candidate.type != "project"
                and is_general_knowledge(text)):
            return StageResult.reject(
                "source.general_knowledge",
                "Rejected: general knowledge, not a fact about the person. Memory is for what "
                "is true of this person and their work. If the user asked you to keep it, save "
                "it again with source \"user-explicit\"; if it is about their project, say whose "
                "it is or pass type \"project\".",
            )
        return StageResult.passed()
