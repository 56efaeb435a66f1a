"""Sentence shapes that ask without a question mark, in the languages that ask in place (D-271).

Each is a construction, not a phrase: it holds whatever the words around it.
- `tell_me`: an imperative of telling or reminding addressed to the agent, followed by what is
  asked ("Tell me what I decided…", "Sag mir, wie…", "Powiedz mi, ile…", "Πες μου σε ποιο…",
  "बताओ कि…", "أخبرني من…"), or closing the sentence in the verb-final languages ("…마감일
  알려줘", "…教えて"). With a standing word ("always tell me when a build fails") or, verb last,
  a clause before it ("聞いたときは、…教えて", "when I ask, …") it is an instruction.
- `alternative_tail`: a yes/no question closed by its negative alternative ("… or not", "…
  oder nicht", "… или нет", "… या नहीं", "… 还是没有"), unless a complementiser embeds it in
  a statement ("I never know whether to tip or not").
- `in_place`: an interrogative inside a single clause in the languages that do not move it to
  the front: Turkish ("sunucu hangi bölgede çalışıyor", with `acaba` anywhere), Chinese
  ("那个字体叫什么名字", not 什么都 "everything" nor after 不管/无论 "whatever"), Korean with a
  copula ending ("이사회가 언제예요"). A Turkish conditional or temporal verb ("ne zaman
  yorulsam…", "whenever I tire"; "…sorduğumda", "when I ask") or a comma makes it a
  statement's clause.
- `verb_second`: an interrogative that also opens a "when"-clause (Dutch `wanneer`, Polish
  `kiedy`, Italian `quando`, Portuguese `quando`, Spanish `cuando`) asks only when a finite
  auxiliary follows it at once (a question's inversion; the clause puts the verb last or its
  subject first) and no comma opens a main clause after it; French `c'est quand/où/qui…`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._text import tokens, wordset

_HEAD = 60  # the shapes below read the first words or the last few characters only
_TAIL = 24
_TELL_ME = lazy_compile(
    r"^(?:(?:please|pls|bitte|por favor|per favore|s['’]il te plaît|пожалуйста|lütfen|"
    r"παρακαλώ|proszę|alsjeblieft|من فضلك)[\s,]+)?"
    r"(?:(?:can|could|would) you (?:please )?)?"
    r"(?:tell me|sag(?:e|st du)? mir|erzähl mir|dis[- ]moi|dites[- ]moi|dime|decime|dígame|"
    r"dimmi|mi dici|diz[- ]me|me diz|me diga|me conta|скажи(?:те)?(?: мне)?|"
    r"подскажи(?:те)?(?: мне)?|напомни(?:те)?(?: мне)?|(?:bana )?söyle(?:r misin(?:iz)?)?|"
    r"πες μου|πείτε μου|θύμισέ μου|powiedz(?: mi)?|przypomnij(?: mi)?|zeg (?:me|eens)|"
    r"vertel (?:me|eens)|أخبرني|قل لي|ذكرني|(?:मुझे )?(?:बताओ|बताइए|बताइये|बता दो|याद दिलाओ)|"
    r"告诉我|告訴我|提醒我)(?!\w)",
    re.IGNORECASE,
)
# What follows a "tell me" that asks: an interrogative or "whether" (not "if": "tell me if a
# command needs sudo" is a standing instruction; not an article: "tell me the truth").
TOLD = wordset(
    """whether what when where who which why how ob wie wo was wann welche welcher welches wer
    warum wieviel wieviele comment où quand qui quoi quel quelle quels quelles pourquoi combien
    si qué cuándo dónde quién cuál cómo cuánto cuánta cuántos cuántas cuando donde cuanto
    dove quando chi cosa come quale perché quanto quanti quante onde quem qual quais quanto
    quantos quanta quantas como se где когда кто что как какой какая какие почему сколько ли
    nerede ne nasıl hangi kim kaç πού πότε ποιος ποια ποιο ποιοι ποιες τι πώς γιατί πόσο πόσα
    αν σε gdzie kiedy kto co jak który która które ile czy waar wanneer wat hoe welke wie
    hoeveel of من ما ماذا متى أين كيف كم لماذا هل कि कब कहाँ कहां कौन कैसे क्यों कितना कितने
    किसने क्या"""
)
_TELL_ME_LAST = lazy_compile(
    r"(?:알려\s?줘|알려\s?주세요|알려\s?줄래|알려\s?줄\s?수|教えて(?:ください|くれ|くれる|もらえる)?|"
    r"告诉我|告訴我)[?？.。!！\s]*$|(?<!\S)(?:बताओ|बताइए|बता दो)[।?\s]*$"
)
_ALTERNATIVE_TAIL = lazy_compile(
    r"(?:\b(?:or not|oder nicht|ou pas|ou non|o no|o non|ou não|или нет|czy nie|of niet|"
    r"yoksa değil mi)|(?<!\w)ή όχι|(?<!\S)या नहीं|还是没有|還是沒有|أم لا)[?？؟.।\s]*$",
    re.IGNORECASE,
)
_TAIL_ENDS = ("not", "nicht", "pas", "non", "no", "não", "нет", "nie", "niet", "mi", "όχι",
              "नहीं", "没有", "沒有", "لا")
_WORD = lazy_compile(r"\w+")
# "… whether to tip or not" embeds the alternative in a statement.
_COMPLEMENTIZER = wordset("whether ob si se czy ли of om αν कि إذا 是否 かどうか")
_TR_WH = lazy_compile(
    r"(?<!\w)(?:hangi|nerede|nereye|nereden|neden|niçin|niye|nasıl|kaç|kaça|kaçta|kaçtan|kaçı|"
    r"kaçıncı|kimin|kime|ne zaman|"
    r"ne kadar)(?!\w)|(?<!\w)acaba(?!\w)",
    re.IGNORECASE,
)
_TR_CONDITIONAL = lazy_compile(
    r"\w(?:sa|se)(?:m|n|k|nız|niz|lar|ler)?(?!\w)|(?<!\w)(?:olursa|olsun|bile)(?!\w)|"
    r"ğ[ıiuü]",  # a nominalised verb after it: an embedded clause ("nasıl ölçeceğimi")
    re.IGNORECASE,
)
_TR_TEMPORAL = lazy_compile(  # "when I ask …" anywhere: the clause of an instruction
    r"ğ[ıiuü]\w*(?:da|de|ta|te)(?!\w)|\w(?:ınca|ince|unca|ünce|ken)(?!\w)",
    re.IGNORECASE,
)
_ZH_WH = lazy_compile(
    r"^(?!.*(?:不管|无论|無論|不论|不論|不知道|知道))"
    r".*(?:(?<![没沒])什么|(?<![没沒])什麼|哪(?!怕)|谁|誰|"
    r"几[点號号月天个個位年岁歲]|多少|为什么|為什麼|(?<!不)怎么|(?<!不)怎麼)(?![都也])"
)
_TR_HINTS = ("hangi", "nere", "neden", "niçin", "niye", "nasıl", "kaç", "kim", "ne zaman",
             "ne kadar", "acaba")
_HAN = lazy_compile(r"[\u4e00-\u9fff]")
_KANA = lazy_compile(r"[\u3040-\u30ff]")
_HANGUL = lazy_compile(r"[\uac00-\ud7af]")
_KO_WH_COPULA = lazy_compile(
    r"(?:언제|어디|뭐|무엇|누구|몇\s*\S+?|어느\s*\S+?)\s*(?:예요|이에요|에요|야|이야|입니까|"
    r"인가요|일까요?|였지|였더라|더라|지)[?.\s]*$"
)
_CLAUSE_BREAK = lazy_compile(r"[,;:，；：、]")
_WHEN_WORDS = wordset("wanneer kiedy quando cuando")
_FINITE_AUX = wordset(
    """is was zijn waren ben bent heb hebt heeft hebben had hadden kan kun kunnen moet moeten
    wordt worden komt gaat begint mam masz ma mamy macie mają jest są był była było będzie
    będą trzeba è sono era erano ho hai ha abbiamo hanno sarà scade scadono è é são foi está
    estão tenho tem temos vence vencen es son fue está están tengo tiene tenemos empieza
    termina"""
)
_FR_IN_PLACE = lazy_compile(
    r"^c['’]est (?:quand|où|qui|quoi|combien|comment|lequel|laquelle)\b", re.IGNORECASE
)


def tell_me(text: str, standing: Callable[[str], object]) -> bool:
    """An imperative of telling addressed to the agent that asks (see the module docstring);
    `standing` finds a standing word (searched only once the shape is found)."""
    match = _TELL_ME.match(text)
    if match is not None:
        rest = tokens(text[match.end():match.end() + _HEAD])[:3]
        asks = any(word in TOLD for word in rest) or (
            bool(rest) and ("\u4e00" <= text[0] <= "\u9fff"))
    else:
        # a clause before it ("やり方を聞いたときは、…教えて") makes it a standing instruction
        asks = not text.isascii() and bool(_TELL_ME_LAST.search(text[-_TAIL:])) and (
            not _CLAUSE_BREAK.search(text))
    return asks and not standing(text)


def asks_in_place(text: str) -> bool:
    """A question by its shape without a mark (see the module docstring)."""
    found = _WORD.findall(text[:_HEAD].lower())
    if not found:
        return False
    tail = text[-_TAIL:].lower().rstrip(" ?？؟.。।")
    if tail.endswith(_TAIL_ENDS) and _ALTERNATIVE_TAIL.search(tail) and not (
            _COMPLEMENTIZER.intersection(_WORD.findall(text.lower()))):
        return True
    if _FR_IN_PLACE.match(text):
        return True
    if _CLAUSE_BREAK.search(text):
        return False
    if found[0] in _WHEN_WORDS and len(found) > 2 and found[1] in _FINITE_AUX:
        return True
    low = text.lower()
    if any(hint in low for hint in _TR_HINTS):
        wh = _TR_WH.search(text)
        if wh is not None and not _TR_TEMPORAL.search(text) and not (
                _TR_CONDITIONAL.search(text, wh.end())):
            return True
    if text.isascii():
        return False
    if _HAN.search(text) and not _KANA.search(text):
        return bool(_ZH_WH.match(text))
    return bool(_HANGUL.search(text) and _KO_WH_COPULA.search(text))
