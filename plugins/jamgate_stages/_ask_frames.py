"""Frames that ask, one table for every language (D-421).

An independent author asks in shapes the sentence-by-sentence rules of `_question` did not
know (issue #16): a frame around an indirect question, an interrogative left in place, or a
yes/no ending. Each is a construction, held in one table per construction so that a language
is added as a row, not as another rule:
- `FRAMES`: a frame that opens an indirect question or a question to the agent, per language:
  "I'd like to know", "Me gustaría saber", "Chciałbym wiedzieć", "Zajímalo by mě", "أريد أن
  أعرف", "می‌خواستم بدونم", "מעניין אותי", "Nataka kujua", "Aku pengin tahu", "Mình muốn
  biết", "Θα ήθελα να μάθω", and the "tell me" and "do you know" frames the older tables lack.
  It asks only when an interrogative or "whether" (`ASKED`) follows in the same clause ("I'd
  like to know Italian one day" is a wish) and no standing word makes it a rule.
- `FRAMES_LAST`: the same frame where the verb-final languages put it, after an embedded
  question ("…かどうか知りたいです", "…남았는지 궁금해요", "…kaç olduğunu merak ediyorum").
- `in_situ`: an interrogative inside one clause in the languages that leave it in place —
  Persian, Indonesian and Malay, Thai, Vietnamese, Swahili, Hindi, Japanese (with a question
  ending) — unless an indefinite ("هر چه", "apa saja", "ใครก็ได้", "ai cũng") or a clause
  break (a colon: "چرا فونت وزیر رو انتخاب کردیم: خواناتره") makes it a statement's.
- `yes_no_end`: a yes/no ending: Korean -나요/-까요/-니/-냐, Chinese V没有 and A不A,
  Vietnamese "… chưa", Indonesian "sudah … belum", Swahili "… au bado", Czech and Slovak
  second-person verbs first ("Máš …", "Vieš …").
"""

from __future__ import annotations

import re

from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._text import tokens, wordset

# One row a language: the frames that open an indirect question or a question to the agent.
_FRAME_ROWS: dict[str, str] = {
    "en": r"i['’]?d (?:like|love) to know|i would (?:like|love) to know|do you happen to know|"
          r"(?:do|would) you know",
    "de": r"ich (?:möchte|will|würde gerne?|wüsste gerne?) wissen|ich wüsste gerne?|"
          r"mich (?:würde|interessiert)(?: mal)? (?:interessieren|brennend)?|"
          r"weißt du (?:zufällig|vielleicht)|wissen sie",
    "fr": r"j['’](?:aimerais|voudrais) (?:bien )?savoir|je (?:voudrais|veux|veux juste) savoir|"
          r"je suis curieu(?:x|se) de savoir|vous savez|savez-vous",
    "es": r"me gustaría saber|quisiera saber|quiero saber|tengo curiosidad por saber|"
          r"(?:me )?(?:puedes|podrías) decir|(?:oye,? )?(?:sabes|sabés)",
    "pt": r"(?:eu )?(?:queria|gostava de|gostaria de|quero) saber|(?:tu )?sabes",
    "it": r"vorrei sapere|mi piacerebbe sapere|sono curios[oa] di sapere|sai dirmi|sapresti dirmi|"
          r"(?:tu )?sai",
    "nl": r"ik (?:wil|zou graag willen) weten|ik ben benieuwd|weet jij|weet u",
    "pl": r"chciał(?:bym|abym) wiedzieć|chcę wiedzieć|ciekaw(?:e|y jestem|a jestem)|"
          r"(?:nie )?wiesz(?: może| przypadkiem)?",
    "cs": r"zajímalo by mě|chtěl(?:a)? bych vědět|(?:ne)?víš|(?:ne)?víte",
    "sk": r"zaujímalo by ma|pýtam sa|chcel(?:a)? by som vedieť|(?:ne)?vieš|(?:ne)?viete",
    "uk": r"цікаво|хотів би знати|хотіла б знати|скажи(?:те)? мені|(?:ти )?(?:не )?знаєш",
    "ru": r"хотел(?:а)? бы (?:узнать|знать)|хочу (?:узнать|знать)|(?:ты )?не знаешь",
    "el": r"θα ήθελα να μάθω|θέλω να μάθω|μήπως ξέρεις",
    "tr": r"öğrenmek istiyorum|bilmek istiyorum|biliyor musun",
    "ar": r"(?:أريد|أود|اريد|اود) (?:أن|ان) (?:أعرف|اعرف)|(?:هل )?(?:تعرف|تعرفين|تعلم)|"
          r"أتساءل|اتساءل",
    "fa": r"می[\u200c ]?(?:خواستم|خوام|خواهم) (?:بدونم|بدانم)|(?:به من |بهم )?بگو|"
          r"می[\u200c ]?(?:دونی|دانی|دونید|دانید)",
    "he": r"מעניין אותי|(?:אני )?רוצה לדעת|(?:אתה|את) יודע(?:ת)?|תגיד(?:י)? לי|ספר(?:י)? לי",
    "hi": r"मुझे जानना (?:है|था)|मैं जानना चाहता हूँ|मैं जानना चाहती हूँ|(?:ज़रा )?बताइए|"
          r"(?:मैं )?सोच (?:रहा|रही) (?:हूँ|हूं|था|थी)",
    "sw": r"(?:nataka|ningependa|napenda) kujua|unajua|niambie",
    "id": r"(?:aku|saya|gue|gw) (?:pengin|pengen|ingin|mau) tahu|(?:aku|saya) penasaran|"
          r"(?:kamu|anda) tahu(?: nggak| gak| tidak| enggak)?|kasih tahu (?:aku|saya)|"
          r"beri(?:tahu| tahu) (?:aku|saya)",
    "vi": r"(?:mình|tôi|em|anh|chị) muốn biết|(?:bạn|anh|chị|em) có biết|"
          r"nói (?:cho|với) (?:mình|tôi|em) biết|cho (?:mình|tôi|em) hỏi",
}
# Scripts written without spaces: the frame runs on into the question ("我想知道这款…").
_UNSPACED_FRAMES = (r"我想知道|我想问(?:一下)?|我想問(?:一下)?|请问|請問|我很好奇|我好奇|"
                    r"อยากรู้(?:ว่า)?|รู้ไหมว่า|รู้มั้ยว่า|บอก(?:ฉัน|ผม|หนู)?หน่อย(?:ว่า)?")
FRAMES = lazy_compile(
    r"^(?:(?:please|oye|hey|so|ok|okay|bitte|dis|hé|ey|ну)[\s,]+)?(?:(?:"
    + "|".join(f"(?:{row})" for row in _FRAME_ROWS.values()) + r")(?!\w)|"
    + _UNSPACED_FRAMES + r")[\s,:]*",
    re.IGNORECASE,
)
# The frames of the verb-final languages, after an embedded question.
FRAMES_LAST = lazy_compile(
    r"(?:かどうか|のか|か)(?:が|を)?(?:知りたい|気になる|気になります|教えてほしい)(?:です|んです|な)?[。\s]*$|"
    r"(?:는지|은지|을지|ㄴ지|던지|인지|었는지|았는지|했는지)\s*(?:궁금해요|궁금해|궁금합니다|궁금하다|"
    r"알고 싶어요|알고 싶습니다|알고 싶어)[.\s]*$|"
    r"(?:dığını|diğini|duğunu|düğünü|tığını|tiğini|tuğunu|tüğünü|acağını|eceğini|"
    r"olduğunu)\s+(?:merak ediyorum|bilmek istiyorum|öğrenmek istiyorum)\W*$|"
    r"(?:जानना चाहता हूँ|जानना चाहती हूँ)[।\s]*$",
    re.IGNORECASE,
)
# What makes the words after a frame an indirect question: an interrogative or "whether", in
# any of the frames' languages (the older `_question._ASKED` holds the Western European ones).
ASKED = wordset("""
whether if what when where who which why how ob wie wo was wann welche welcher welches wer
warum wieviel si quand où qui quoi quel quelle quels quelles pourquoi combien comment
qué cuándo dónde quién cuál cuáles cómo cuánto cuánta cuántos cuántas se quando onde quem qual
quais quanto quantos quanta quantas como porque dove chi cosa come quale perché quanti quante
of wanneer waar wie wat hoe welke hoeveel waarom czy kiedy gdzie kto co jak który która które
ile dlaczego jestli zda kdy kde kdo proč kolik jak který která které či kedy kde kto čo ako
koľko prečo ktorý ktorá ktoré чи де коли хто що як скільки який яка яке які чому ли где когда
кто что как какой какая какие сколько почему αν πότε πού ποιος ποια ποιο τι πόσο πόσα γιατί
πώς ne nerede nasıl hangi kim kaç neden إن إذا اذا ما ماذا متى أين كيف كم من لماذا هل
که کی چی چه کجا چند چرا چطور کدوم کدام آیا אם מה מתי איפה למה כמה מי איך האם कि क्या कब
कहाँ कहां कौन कैसे क्यों कितना कितनी कितने चیست چیه کیست kama wapi lini nani nini ngapi gani vipi apa
apakah siapa berapa kapan mana kenapa mengapa bagaimana gimana kalau ai gì đâu nào sao mấy
""")
_ASKED_PHRASES = lazy_compile(
    r"(?<!\w)(?:bao nhiêu|khi nào|bao giờ|tại sao|có\s.+\s(?:không|chưa)|kwa nini|di mana|"
    r"ne zaman|ne kadar)(?!\w)|(?<!\w)(?:یا نه|یا خیر|או לא|أم لا|atau tidak|atau belum)\W*$|"
    r"ว่า|ไหน|อะไร|ใคร|เมื่อไร|เมื่อไหร่|ทำไม|ยังไง|อย่างไร|กี่|"
    r"什么|什麼|谁|誰|哪|几|多少|怎么|怎麼|为什么|為什麼|是否|有没有|有沒有",
    re.IGNORECASE,
)


def after_frame(rest: str, words: tuple[str, ...]) -> bool:
    """Whether the words after a frame are an indirect question (see `FRAMES`)."""
    return any(word in ASKED for word in words[:12]) or bool(_ASKED_PHRASES.search(rest))


# Interrogatives of the languages that leave them in place, and the indefinites that make the
# same words "any", "every" or "whatever". The Latin-script ones count only in a text of their
# language (a common word of it, or Vietnamese letters): "APA" and "J'ai" ask nothing.
_IN_SITU = lazy_compile(
    r"(?<!\w)(?:کی|چی|چه|کجا|کجای|چرا|چطور|چطوری|کدوم|کدام|چیه|کیه|کجاست|چیست|کیست)(?!\w)|"  # fa
    r"กี่|ไหน|อะไร|ใคร|เมื่อไร|เมื่อไหร่|ทำไม|ยังไง|อย่างไร|"  # th
    r"(?<!\S)(?:कब|कहाँ|कहां|कौन|कौनसा|कौनसी|कैसे|क्यों|कितना|कितनी|कितने|किस|किसे|किसका|"
    r"किसकी|किसने)(?!\S)",  # hi
)
# One row a language: its interrogatives (one word each) and common words that say the text is
# in it (Vietnamese: its letters).
_LATIN_ROWS = (
    ("apa siapa berapa kapan mana kenapa mengapa bagaimana gimana dimana",  # id, ms
     "yang sudah belum saya aku kamu ini itu untuk dengan tidak nggak gak ada dong sih buat bisa "
     "lagi mau kemarin besok hari paling nak tak"),
    ("wapi lini nani nini ngapi gani vipi",  # sw
     "ni ya wa na kwa la za cha vya kwenye leo kesho jana hii huu yako yangu"),
    ("nhiêu mấy nào đâu ai gì",  # vi: "bao nhiêu", "khi nào", "ở đâu" (not "sao": "sao lưu")
     ""),
)
_VI_LETTERS = lazy_compile(r"[ăđơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]", re.IGNORECASE)
_LATIN_WH = [wordset(words) for words, _ in _LATIN_ROWS]
_LATIN_ANY = frozenset().union(*_LATIN_WH)
_LATIN_HINTS = [wordset(hints) for _, hints in _LATIN_ROWS]


def _latin_in_situ(text: str, words: tuple[str, ...]) -> bool:
    """An interrogative of Indonesian, Swahili or Vietnamese in a text of that language."""
    for wh, hints in zip(_LATIN_WH, _LATIN_HINTS, strict=True):
        if not wh.isdisjoint(words) and (any(w in hints for w in words) if hints
                                         else bool(_VI_LETTERS.search(text))):
            return True
    return False


_INDEFINITE = lazy_compile(
    r"(?<!\w)هر(?!\w)|(?<!\w)(?:هیچ|بعضی)(?!\w)|"
    r"(?<!\w)(?:apa|siapa|kapan|mana|berapa)(?:\s?pun|\s+saja|\s+aja)(?!\w)|(?<!\w)beberapa(?!\w)|"
    r"(?<!\w)(?:cũng|bất kỳ|bất cứ|không\s+\w+\s+gì|chẳng)(?!\w)|ก็|ไม่\S*?(?:อะไร|ใคร|ไหน)|"
    r"(?<!\w)(?:yoyote|wowote|popote|chochote|kila)(?!\w)|"
    r"(?<!\S)(?:भी|कि|जो|जब|जहाँ|जैसे)(?!\S)",
    re.IGNORECASE,
)
_JA_WH = lazy_compile(
    r"いつ|どこ|どれ|どの|どう|どんな|なに|なん|何|だれ|誰|いくら|いくつ|なぜ|どうして"
)
_JA_ASK_END = lazy_compile(r"(?:の|のか|かな|っけ|か|んだろう|だろう)[。\s]*$")
_HAS_KANA = lazy_compile(r"[\u3040-\u30ff]")
_JA_BREAK = lazy_compile(r"[:;：；]")
_CLAUSE_BREAK = lazy_compile(r"[:;：；]|,\s|،|，|、")


def in_situ(text: str) -> bool:
    """An interrogative left in place in one clause (see the module docstring)."""
    if _HAS_KANA.search(text):  # a topic's comma is no clause of its own: "このバグ、いつ…の"
        return not _JA_BREAK.search(text) and bool(
            _JA_WH.search(text) and _JA_ASK_END.search(text[-8:]))
    if _CLAUSE_BREAK.search(text):
        return False
    words = tokens(text)  # shared with the other stages (memoised)
    asks = (not text.isascii() and bool(_IN_SITU.search(text))) or (
        not _LATIN_ANY.isdisjoint(words) and _latin_in_situ(text, words))
    return asks and not _INDEFINITE.search(text)


_YES_NO_END = lazy_compile(
    r"(?:나요|까요|는가|냐|습니까|을까|줄래)[.\s]*$|"  # ko
    r"(?:了没有|了沒有|了没|了沒|过没有|過沒有)[。\s]*$|"  # zh
    r"(?<!\w)(?:chưa|hay chưa|hay không|không vậy)\W*$|"  # vi
    r"(?<!\w)sudah(?!\w).*(?<!\w)(?:belum|blm)\W*$|"  # id
    r"(?<!\w)(?:atau|apa) (?:belum|tidak|nggak|gak|enggak)\W*$|"
    r"(?<!\w)(?:au bado|au la|au hapana)\W*$|"  # sw
    r"(?<!\w)(?:o todavía no|o aún no|ou ainda não|o ancora no|ou não|یا نه|یا خیر|או לא)\W*$|"
    # a tag after a comma: "…, right", "…, oder", "…, n'est-ce pas", "…, değil mi", "…，对吧"
    r",\s*(?:right|isn['’]t it|correct|oder|nicht wahr|gell|non|n['’]est-ce pas|¿?verdad|"
    r"não é|né|vero|giusto|toch|hè|prawda|правда|не так ли|да|değil mi|σωστά|έτσι δεν είναι|"
    r"נכון|صح|مش كده|درسته|na|phải không|đúng không|kan|ndiyo|sivyo)\W*$|"
    r"[，,]\s*(?:对吧|對吧|是吧)[。\s]*$",
    re.IGNORECASE,
)
_ZH_A_NOT_A = lazy_compile(r"^(?!.*(?:不管|无论|無論|不论|不論)).*([\u4e00-\u9fff])不\1")
_SECOND_PERSON_FIRST = lazy_compile(  # Czech and Slovak: "Máš …", "Vieš …" open a question
    r"^(?:máš|víš|znáš|pamatuješ|můžeš|máte|víte|znáte|vieš|poznáš|pamätáš|môžeš|viete)"
    r"(?:\s+si)?\s+\w",
    re.IGNORECASE,
)


# The last words `_YES_NO_END` can end on outside Korean and Chinese: the ending is searched
# only after one of them (or a Hangul or Han character), so most texts cost a set look-up.
_END_WORDS = wordset("""
chưa không belum blm tidak nggak gak enggak bado la hapana no não نه خیر לא right it correct
oder wahr gell non pas verdad é né vero giusto toch hè prawda правда ли да mi σωστά είναι נכון
صح كده درسته na kan ndiyo sivyo
""")
_SECOND_PERSON = wordset(
    "máš víš znáš pamatuješ můžeš máte víte znáte vieš poznáš pamätáš môžeš viete"
)


def yes_no_end(text: str) -> bool:
    """A yes/no question by its ending or, in Czech and Slovak, its verb (see above)."""
    words = tokens(text)
    if not words:
        return False
    last = words[-1]
    ending = last in _END_WORDS or "\uac00" <= last[-1] <= "\ud7af" or (
        "\u4e00" <= last[-1] <= "\u9fff")
    return bool((ending and _YES_NO_END.search(text[-40:]))
                or ("不" in text and _ZH_A_NOT_A.match(text))
                or (words[0] in _SECOND_PERSON and _SECOND_PERSON_FIRST.match(text)))
