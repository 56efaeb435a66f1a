"""The user's question of this turn, reported by an agent in the third person (D-376).

"User asked what a 503 means" is narration of the conversation, which `chatter` refuses in
English and, before this, in seven languages with one gender and one article ("el usuario
preguntó", not "la usuaria preguntó"). Here in every language of the user's word
(`_reported_thanks.user_opened`): the user at the opening, then a verb that asks a *question* —
not one that asks *for* something ("preguntó", not "pidió"; "fragte", not "bat"; "спросил",
not "попросил"), since a reported request may be a standing instruction. Where one verb does
both (Italian "chiedere", French "demander", Dutch "vragen"), an interrogative must follow.
Verb-final languages put the verb last. A standing word still exempts the text (`chatter`,
D-375).

A request the user made is reported the same way; it is this turn's when it points at this
turn's object: a verb that asks *for* something, then a demonstrative ("pidió traducir este
párrafo", "попросил перевести этот абзац", "让我把这段话翻译", "この メールを … 頼んだ"), D-377.
"""

from __future__ import annotations

from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._reported_thanks import user_opened

_WH = (r"(?:si|ce que|ce qu['’]|comment|quand|o[uù]|pourquoi|quel\w*|combien|qui|se|come|cosa|"
       r"che cosa|quando|dove|perch[eé]|qual\w*|quant\w*|chi|hoe|wat|of|wanneer|waar|waarom|"
       r"welke|wie|hoeveel)\b")
# The verb right after the user (an auxiliary allowed), in the languages that put it there.
_ASKED_AFTER = lazy_compile(
    r"\s*,?\s*(?:"
    r"pregunt[oó]|pregunta|ha preguntado|quiso saber|quiere saber|perguntou|quis saber|"
    r"quer saber|"
    rf"(?:ha chiesto|chiede|ha domandato|domanda|a demand[eé]|demande|s['’]est demand[eé]|"
    rf"vroeg|heeft gevraagd)\s+{_WH}|"
    r"fragte|fragt|hat (?:nach)?gefragt|wollte wissen|will wissen|"
    r"fr[aå]gade|har fr[aå]gat|undrade|ville veta|"
    r"zapyta[lł]a?|spyta[lł]a?|pyta[lł]a?|chcia[lł]a? wiedzie[cć]|"
    r"(?:se )?zeptal[a]?(?: se)?|ptal[a]? se|"
    r"спросил[а]?|спрашивает|спрашивал[а]?|поинтересовал(?:ся|ась)|хотел[а]? узнать|"
    r"запитав|запитала|спитав|спитала|питав|питала|цікавився|цікавилася|"
    r"ρώτησε|ρωτάει|ρωτά|"
    r"a [iî]ntrebat|[iî]ntreab[aă]|megk[eé]rdezte|k[eé]rdezte|[eé]rdekl[oő]d[oö]tt|"
    r"kysyi|kysyy|bertanya|menanyakan|(?:đã )?h[oỏ]i|aliuliza|anauliza|"
    r"سأل(?:ت)?|يسأل|تسأل|استفسر(?:ت)?|שאל(?:ה)?"
    r")(?!\w)"
)
# The verb at the end, in the verb-final languages.
_ASKED_LAST = lazy_compile(
    r"(?<!\w)(?:sordu|soruyor|sormu[sş]|پرسید|(?:سؤال|سوال) کرد|पूछा|पूछा है|पूछ रहे थे|"
    r"पूछ रही थीं)$|"
    r"(?:聞いた|聞きました|尋ねた|尋ねました|質問した|質問しました|물었다|물어봤다|물어보았다|"
    r"질문했다)$"
)
# Verbs that ask *for* something, after the user or (verb-final languages) anywhere after it.
_REQUESTED = lazy_compile(
    r"(?<!\w)(?:asked (?:for|to|me to|us to|the (?:agent|assistant) to)|requested|"
    r"pidi[oó]|ha pedido|pediu|ha chiesto|a demand[eé]|bat|hat (?:darum )?gebeten|vroeg om|"
    r"bad (?:om|att)|poprosi[lł]a?|po[zž][aá]dal[a]?|попросил[а]?|попросив|попросила|ζήτησε|"
    r"istedi|rica etti|طلب(?:ت)?|ביקש(?:ה)?|خواست|درخواست کرد|माँगा|मांगा|pyysi|k[eé]rte|"
    r"a cerut|aliomba|minta|meminta|nh[oờ]|y[eê]u c[aầ]u)(?!\w)|"
    r"让我|請我|请我|要求|頼んだ|頼みました|してほしい|달라고|부탁했|ขอให้"
)
# This turn's object: a demonstrative before it (the short Slavic "to / ta / ten" and French
# "ce" are left out: they are English "to", Italian "ta", Romanian "what").
_THIS = lazy_compile(
    r"(?<!\w)(?:this|these|este|esta|estos|estas|esse|essa|isto|questo|questa|questi|cet|"
    r"cette|ces|diese[nmrs]?|dieses|diesmal|deze|den h[aä]r|det h[aä]r|denna|detta|tego|tej|"
    r"tento|tuto|tohoto|této|этот|эта|это|этого|эту|этой|цей|ця|це|цього|цю|αυτό|αυτή|αυτόν|"
    r"αυτού|αυτής|bu|bunu|bunun|هذا|هذه|הזה|הזאת|הזו|این|इस|này|ini|t[aä]m[aä]n|t[aä]t[aä]|"
    r"ezt|ennek|acest|acesta|aceasta|acestui|acestei|hii|huu|hili|haya)(?!\w)|"
    r"这|這|この|이 |นี้"
)
_JOINED = lazy_compile(r"^(?:问了?|询问|詢問|想知道|ถาม)")
_CLOSE = " .!。！।"


def reported_question(text: str) -> bool:
    """Whether `text` reports a question the user asked (see the module docstring)."""
    opened = user_opened(text, _CLOSE)
    if opened is None:
        return False
    rest = opened[1][opened[2]:]
    return bool(_ASKED_AFTER.match(rest) or _JOINED.match(rest) or _ASKED_LAST.search(rest))


def reported_request(text: str) -> bool:
    """Whether `text` reports a request for this turn's object (see the module docstring)."""
    opened = user_opened(text, _CLOSE)
    if opened is None:
        return False
    _, low, start = opened
    return (_REQUESTED.search(low, start) is not None
            and _THIS.search(low, start) is not None)
