"""The user's thanks, greeting or goodbye reported by an agent, in the third person (D-372).

An agent that notes "The user said thanks", "Der Nutzer hat sich bedankt" or "用户说了谢谢"
saves a pleasantry of this turn, told about rather than said: no claim about the person. Read
by closed classes, not by the model (whose n-grams of one language's verb of thanking teach it
nothing of another's, D-372): the user as the subject at the opening, in the languages of
`_user_words`, then a verb phrase of thanking, greeting or taking leave, then at most five
words more ("… the assistant", "… for the help", "… and said goodbye") — none a
number or a capitalised word (a name, a place), so "The user thanked Anna for the wedding gift"
or "User thanked the team for the 2024 award" is not read as one.
"""

from __future__ import annotations

from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._user_words import opening

# The user at the opening, with or without an article, both genders (`_user_words`, D-386).
USER_OPENING = lazy_compile(opening())
# Thanking, greeting or taking leave, as a past or present report (the rest of the text is this).
_VERB = lazy_compile(
    r"(?:"
    # English
    r"(?:has |had )?(?:thanked|thanks|greeted|said (?:thanks|thank you|hi|hello|good ?bye|bye|"
    r"good (?:morning|night|evening|afternoon)|cheers|ok,? thanks)|(?:expressed|showed) "
    r"(?:(?:their|his|her) )?(?:gratitude|thanks|appreciation)|replied (?:ok,? )?thanks|"
    r"says (?:thanks|thank you|hi|hello|goodbye))|"
    # Spanish, Portuguese, Italian, French
    r"(?:dio|da) las gracias|agradeci[oó]|agradeceu|agradece|se despidi[oó]|se despediu|"
    r"despediu-se|salud[oó]|cumprimentou|disse (?:obrigad[oa]|tchau|ol[aá])|dijo gracias|"
    r"ha (?:ringraziato|salutato)|ringrazia|ha detto grazie|"
    r"a (?:remerci[eé]|dit (?:merci|bonjour|au revoir|bonsoir))|remercie|"
    # German, Dutch, Swedish
    r"hat sich (?:bedankt|verabschiedet)|bedankte sich|bedankt sich|verabschiedete sich|"
    r"sagte danke|hat danke gesagt|gr[uü](?:ss|ß)te|"
    r"bedankte|zei (?:bedankt|dank je(?: wel)?|dankjewel|hallo|doei|dag)|nam afscheid|"
    r"tackade|sa (?:tack|hej(?: d[aå])?)|"
    # Polish, Czech, Russian, Ukrainian, Greek
    r"podzi[eę]kowa[lł]a?|dzi[eę]kuje|po[zż]egna[lł]a? si[eę]|pod[eě]koval[a]?|"
    r"rozlou[cč]il[a]? se|поблагодарил[а]?|благодарит|сказал[а]? спасибо|попрощал(?:ся|ась)|"
    r"подякував|подякувала|дякує|сказав дякую|сказала дякую|попрощав(?:ся)?|попрощалася|"
    r"ευχαρίστησε|είπε (?:ευχαριστώ|γεια)|αποχαιρέτησε|"
    # Turkish, Finnish, Hungarian, Romanian, Swahili, Indonesian, Vietnamese
    r"te[sş]ekk[uü]r (?:etti|ediyor)|veda etti|kiitti|kiittää|hyv[aä]sti|megk[oö]sz[oö]nte"
    r"(?: a seg[ií]ts[eé]get)?|k[oö]sz[oö]n(?:t|i)|a mul[tț]umit|mul[tț]ume[sș]te|"
    r"alisema asante|ameshukuru|alishukuru|mengucapkan terima kasih|berterima kasih|"
    r"bilang terima kasih|n[oó]i c[aả]m [oơ]n|c[aả]m [oơ]n|ch[aà]o t[aạ]m bi[eệ]t|"
    # Persian, Hebrew, Arabic
    r"تشکر کرد|سپاسگزاری کرد|خداحافظی کرد|אמר(?:ה)? תודה|הודה|הודתה|נפרד(?:ה)?|"
    r"شكر(?:ت)?|قال(?:ت)? شكرا|ودع(?:ت)?"
    r")"
)
# Scripts without spaces, and verb-final languages whose particle joins the subject.
_VERB_JOINED = lazy_compile(
    r"^(?:说了?(?:声)?谢谢|表示(?:了)?感谢|道谢|道别|說了?(?:聲)?謝謝|表示感謝|"
    r"(?:は|が)?(?:お礼を言った|お礼を言いました|感謝(?:した|しました|を伝えた)|"
    r"ありがとうと言った|挨拶した)|"
    r"(?:가|는|이)?\s*(?:고맙다고 했다|감사하다고 했다|감사를 표했다|고마워했다|인사했다)|"
    r"(?:\s*ने)?\s*(?:धन्यवाद|शुक्रिया)\s*(?:कहा|दिया)|"
    r"\s*(?:กล่าว)?ขอบคุณ(?:ครับ|ค่ะ)?)"
)
_CLOSE = " .!。！।…"


def user_opened(text: str, close: str) -> tuple[str, str, int] | None:
    """`text` stripped of blanks and the `close` characters, lowercased (a Turkish dotted "İ"
    as "i"), and where its opening "the user" ends; None where it does not open so."""
    stripped = text.strip().rstrip(close)
    low = stripped.lower().replace("i\u0307", "i")
    opening = USER_OPENING.match(low)
    return None if opening is None else (stripped, low, opening.end())


def reported_thanks(text: str) -> bool:
    """Whether `text` is the user's thanks, greeting or goodbye, reported and nothing more."""
    opened = user_opened(text, _CLOSE)
    if opened is None:
        return False
    stripped, low, start = opened
    rest = low[start:]
    joined = _VERB_JOINED.match(rest)
    if joined is not None:
        tail = rest[joined.end():]
        return len(tail.strip()) <= 8 and not any(c.isdigit() for c in tail)
    spaces = len(rest) - len(rest.lstrip(" ,"))
    verb = _VERB.match(rest, spaces)
    if verb is None or (verb.end() < len(rest) and rest[verb.end()].isalnum()):
        return False
    said = len(low[:start + verb.end()].split())
    return _plain_tail(stripped.replace(",", " ").split()[said:])


def _plain_tail(words: list[str]) -> bool:
    """At most five words more, none a number or a capitalised word."""
    return len(words) <= 5 and not any(
        any(c.isdigit() for c in w) or w[:1].isupper() for w in words)
