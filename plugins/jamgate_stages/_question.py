"""Questions: whether a whole text asks rather than states (the junk stage's `junk.question`).

A text is a question when it ends in a question mark of any script (`?？؟`, Greek `;`) and
opens with an interrogative or is one sentence; or, without a mark, when one sentence carries
a signal that is a question in its language whatever the words:
- a question particle: Turkish `mi/mı/mu/mü` last, Russian `ли` after the verb, Polish
  `czy`, Arabic `هل`, Persian `آیا`, Hebrew `האם`, Hindi `क्या`, Indonesian `apakah`,
  Portuguese `será que`, French `est-ce que` and inversion (`as-tu`), sentence-final
  particles in Chinese, Japanese, Korean, Thai and Vietnamese;
- an interrogative word opening a clause without a comma or colon (so "Where possible I take
  the train" and "Who owns billing: the payments team" are statements), English and German
  auxiliary-first order ("Do I still have…", "Hatten wir uns…"), or a Chinese, Korean or
  Hindi interrogative word in the sentence;
- an indirect question as the whole text ("I wonder whether…", "Ich frage mich, ob…",
  "Je me demande si…", "我想知道…"), a question to the agent ("Do you remember where…",
  "Weißt du noch, wie…", "Any idea when…") or the report of one ("User asked: …",
  "User wants to know whether…").
Since D-271, also the shapes of `_ask_shapes` ("Tell me which …", "… or not", in-place
interrogatives in Turkish, Chinese and Korean, a "when" that asks); since D-273 a polite frame
around a standing instruction ("Could you always answer in Greek?") is not a question.
Since D-313, "how" where it also means "as" asks before a closed set of complements ("Wie
heißt …", "Hoe laat …", "Jak się nazywa …", "Как зовут …"), "qu'est-ce que" opens a question,
and a recall question may name the thing recalled after an article ("Tu te souviens du …").
Since D-421, also the frames, interrogatives in place and yes/no endings of `_ask_frames`, one
table a construction ("Me gustaría saber cuántos …", "این لوگو رو کی …",
"昨天的订单发货了没有", "…, right").
A statement that mentions a question ("One question I get asked is where my accent comes
from: Cork") opens with none of these and stays a statement.
"""

from __future__ import annotations

import re

from jamgate_stages._ask_frames import FRAMES, FRAMES_LAST, after_frame, in_situ, yes_no_end
from jamgate_stages._ask_shapes import TOLD, asks_in_place, tell_me
from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._request_shapes import polite_frame
from jamgate_stages._standing import STANDING
from jamgate_stages._text import has_script, is_cjk, sentences, tokens, wordset

# First words that make a sentence ending in a question mark a question.
_OPENERS: frozenset[str] = wordset(
    """what whats when where who whom whose which why how is are was were am do does did can
    could should would will shall has have had may might isn aren don doesn didn won wouldn
    couldn shouldn qué que cuál cuáles cuándo dónde donde quién quiénes por cómo cuánto
    cuánta cuántos cuántas es está was wer wen wem wessen wann wo woher wohin warum weshalb
    wieso wie welche welcher welches ist sind hat haben kann können gibt soll sollte wird
    würde war qu quoi quand où qui pourquoi comment combien quel quelle quels quelles est τι
    ποιος ποια ποιο ποιοι πότε πού που γιατί πώς πως πόσο πόσα πόσοι μήπως είναι что кто
    когда где почему зачем как какой какая какие сколько куда откуда разве چطور چگونه چقدر
    چرا کجا کی کِی چه چی آیا کدام هل ما ماذا لماذا متى أين كيف من كم أي क्या कौन कब कहाँ कहां
    क्यों कैसे कितना कितने किस 뭐 무엇 언제 어디 왜 어떻게 누구 누가 몇"""
)
_CJK_INTERROGATIVES = lazy_compile(
    r"什么|什麼|谁|誰|哪|为什么|為什麼|怎么|怎麼|怎样|多少|几|吗|嗎|呢|何|なぜ|どこ|いつ|どう|どの|か[。\s]*$"
)
_QUESTION_END = lazy_compile(r"[?？؟⸮]\s*[\"'”’)\]]*\s*$")
_GREEK_QUESTION_END = lazy_compile(r"[;\u037e]\s*$")
_WH_NO_MARK = lazy_compile(
    r"^(?:(?:what|where|who|how)s\s+(?:the|a|an|my|your|this|that)\s|"
    r"(?:what|where|who|when|which|why|how)(?:'s|\s+(?:is|are|was|were|do|does|did|can|could|of|"
    r"should|would|will|has|have|had|much|many|long|old|often))\b)",
    re.IGNORECASE,
)
_AUX_NO_MARK = lazy_compile(
    r"^(?i:is|are|was|were|does|did|has|have|can|could|should|would|will)\s+"
    r"(?:(?i:jam|he|she|they|you|i|the user|user|it|there|this|that)\b|[A-Z][\w'-]+\s+\w)"
)
_CJK_NO_MARK = lazy_compile(r"(?:吗|嗎|呢|ですか|ますか|でしたか|ましたか|のか)[。\s]*$")



def _first_word(text: str) -> str:
    found = tokens(text.lstrip("¿¡\"'([«“ "))
    return found[0] if found else ""


def is_question(text: str) -> bool:
    """Whether the whole text asks rather than states."""
    stripped = text.strip()
    if _standing_request(stripped):
        return False
    parts = sentences(stripped) or [stripped]
    marked = bool(_QUESTION_END.search(stripped)) or (
        bool(_GREEK_QUESTION_END.search(stripped)) and has_script(stripped, "GREEK")
    )
    if marked or stripped.startswith("¿"):
        if len(parts) == 1 or _first_word(stripped) in _OPENERS:
            return True
        if _CJK_INTERROGATIVES.search(parts[0]):
            return True
        return all(_QUESTION_END.search(p) for p in parts)
    if len(parts) != 1:
        return False
    unlabelled = _LABEL.sub("", stripped, count=1)
    return _unmarked_question(stripped) or (
        unlabelled != stripped and bool(unlabelled) and (
            _unmarked_question(unlabelled) or _first_word(unlabelled) in _OPENERS))


# -- without a question mark ---------------------------------------------------------------------

# Interrogative words that open a question and never a statement's clause, per language. The
# words that also mean "when(ever)", "as", "that", "because", "was" or "every" (quando, come,
# что, perché, που, German wie, Swedish var) are left out: they open statements too.
_WH_FIRST: frozenset[str] = wordset(
    """where who which why wo wer wann warum wieso weshalb welche welcher welches wohin woher où
    pourquoi combien quel quelle quels quelles
    dónde cuándo cómo cuál cuáles quién quiénes qué cuánto cuánta
    cuántos cuántas cosa quale quali quanto quanti quante qual quais πού
    ποιος ποια ποιο ποιοι ποιες πόσο πόσα πόσοι πότε πώς μήπως где кто почему зачем какой какая
    какое какие сколько куда откуда gdzie kto dlaczego ile który która które
    waar waarom welke hoeveel vem varför vilken vilket vilka hur nerede
    neden niçin nasıl hangi kim kaç де хто чому який яка яке які скільки куди kde kdo proč
    který která kolik أين متى كيف لماذا ماذا كم هل کجا چرا کی چطور چگونه کدام איפה מתי למה
    איך מי כמה kdy mikor hol miért hogyan mennyi melyik hány hová honnan"""
)
# Italian and Portuguese "where" and "who" also open a statement ("Dove abito c'è un
# mercato"): they ask only before an auxiliary ("Dove ho messo …", "Onde está …").
_WH_BEFORE_AUX: frozenset[str] = wordset("dove chi onde quem")
_AUX_AFTER_WH: frozenset[str] = wordset(
    """ho hai ha abbiamo avete hanno è sono sei era erano tenho tem temos têm é são foi estava
    está estão fica ficou"""
)
_CLITICS: frozenset[str] = wordset("mi ti ci vi si lo la li le gli ne me te se lhe nos")
# After an interrogative, these make a free relative clause or an idiom, not a question
# ("Where I live …", "What we chose …", "Where possible …").
_NOT_QUESTION_NEXT: frozenset[str] = wordset(
    """i we you he she they it my our your his her their the a an this that possible
    necessary needed applicable available feasible ever ich wir du er sie es man mir mich uns
    mein meine je j nous on il elle yo nosotros io noi eu nós εγώ εμείς ik wij we
    jag vi ben biz ja immer"""
)
# A question particle in the sentence (yes/no questions; in the position each language puts it).
_PARTICLE = lazy_compile(
    r"(?<!\w)m[iıuü](?:yım|yim|yum|yüm|sın|sin|sun|sün|yız|yiz|yuz|yüz|sınız|siniz|sunuz|"
    r"sünüz|dır|dir|dur|dür|ydı|ydi|ydu|ydü|ymış|ymiş)?\W*$|"  # Turkish, last
    r"^acaba\b|"  # Turkish "I wonder"
    r"^\w+\s+ли\b|,\s*\w+\s+ли\b|"  # Russian and Ukrainian, after the first word of a clause
    r"^(?:czy|هل|آیا|האם|क्या|apakah|adakah|será que|est-ce que?|est-ce qu['’]|"
    r"разве|неужели|чи)(?!\w)|^qu['’]est-ce (?:que\b|qui\b|qu['’])|"
    r"^\w+-(?:je|tu|il|elle|on|nous|vous|ils|elles)\b",  # French inversion: "As-tu …"
    re.IGNORECASE,
)
_FINAL_PARTICLE = lazy_compile(
    r"(?:吗|嗎|呢|ですか|ますか|でしたか|ましたか|のか|かな|かしら|っけ|だっけ|でしょうか)[。\s]*$|"
    r"(?:ไหม|มั้ย|หรือเปล่า|หรือยัง|หรือไม่|อะไร|ที่ไหน|เมื่อไร|เมื่อไหร่|ยังไง|อย่างไร|ทำไม|ใคร)"
    r"(?:ครับ|ค่ะ|คะ|นะ)?\s*$|"  # Thai
    r"\b(?:có|đã)\b.+\b(?:không|chưa)\W*$"  # Vietnamese có … không
)
# Interrogative words that make a sentence a question wherever they stand (languages that ask
# in place): Chinese at the end of the sentence, Korean with a question ending, Hindi anywhere.
_IN_PLACE = lazy_compile(
    r"(?:哪里|哪儿|哪裡|哪兒|什么时候|什麼時候|什么|什麼|谁|誰|为什么|為什麼|怎么样|怎麼樣|怎么|怎麼|"
    r"多少|几点|幾點|哪个|哪個|哪一)(?:了|呢|啊|呀)?[。\s]*$|"
    r"^(?!.*(?:不管|无论|無論|不论|不論)).*(?:有没有|有沒有|是不是|会不会|會不會|能不能|对不对|對不對)|"
    r"(?:어떤|언제(?!나|든)|어디(?!서나|든|에서나)|누구(?!나|든)|누가|왜|뭐(?!든)|무엇(?!이든)|몇|어느)"
    r".*(?:까|니|냐|나|지|죠|나요|가요|기억나|알아)[.\s]*$|"
    # Hindi: a k-interrogative among the last three words, not after कि ("that": a statement's
    # clause, "मुझे पता है कि … कैसे …").
    r"^(?!.*(?<!\S)कि(?!\S)).*(?<!\S)(?:कब|कहाँ|कहां|कौन|कैसे|क्यों|कितना|कितनी|कितने|किसे|"
    r"किसका|किसकी|किसने)(?:\s+\S+){0,2}\s*[।]?$"
)
# The whole text is an indirect question, a question to the agent, or the report of one.
_ASKING = lazy_compile(
    r"^(?:i(?:\s+wonder|\s+am wondering|\s+was wondering|['’]m wondering|['’]m curious|"
    r"\s+am curious)|"
    r"wondering|any idea|remind me|(?:do|did|can|could) you (?:remember|recall|know)|"
    r"you remember|(?:the )?user (?:is asking|asked|asks|wants to know|would like to know|"
    r"wonders|wondered|is wondering|was wondering)|"
    r"ich frage mich|ich würde gern wissen|weißt du(?: noch)?|wisst ihr|erinnerst du dich|"
    r"je me demande|tu te souviens|vous vous souvenez|tu sais|sais-tu|savez-vous|"
    r"me pregunto|(?:¿)?(?:sabes|sabe usted|recuerdas|te acuerdas)|"
    r"mi chiedo|(?:ti )?ricordi|sai|eu me pergunto|pergunto-me|(?:você )?(?:se )?lembra|"
    r"(?:você )?sabe|lembras-te|αναρωτιέμαι|θυμάσαι|ξέρεις|интересно|(?:ты )?помнишь|"
    r"(?:ты )?знаешь|вы помните|ik vraag me af|weet je(?: nog)?|zastanawiam się|pamiętasz|"
    r"wiesz|jag undrar|kommer du ihåg|vet du|merak ediyorum|bạn có nhớ|"
    r"我想知道|我在想|不知道|你记得|你記得|你还记得|你還記得|覚えてる|覚えています|궁금)(?!\w)",
    re.IGNORECASE,
)
# What may follow an asking phrase: an interrogative, "whether"/"if", or the thing recalled.
_ASKED = wordset(
    """whether if ob si se αν of czy om ли wh what when where who which why how wie wo was wann
    welche wer warum comment où quand qui quoi quel quelle pourquoi combien qué cuándo dónde
    quién cuál cómo cuánto dove quando chi cosa come quale perché onde quem qual quanto como
    porque πού πότε ποιος ποια ποιο τι πώς γιατί πόσο где когда кто что как какой почему
    сколько waar wanneer wat hoe welke gdzie kiedy kto co jak który ile var när vad hur vem
    vilken nerede ne nasıl hangi kim de an di à a the my du des le la les il lo gli el los las
    o os der die das den dem"""
)
_LABEL = lazy_compile(
    r"^(?:memory|note|q|question(?: from (?:the )?user)?|user(?: asked| asks| question)?|"
    r"frage|question de l['’]utilisateur|pregunta|domanda|pergunta|ερώτηση|вопрос)\s*[:：\-–—]\s*",
    re.IGNORECASE,
)
_AUX_FIRST = lazy_compile(
    r"^(?:(?:do|did|does|have|has|had|am|is|are|was|were)\s+(?:i|we|you|they|my|our)\b|"
    r"(?:habe|hab|hast|hat|haben|habt|hatte|hattest|hatten|bin|bist|ist|sind|seid|war|warst|"
    r"waren|kann|kannst|können|könnte|soll|sollte|sollen|wird|werde|wirst|werden|würde|muss|"
    r"musst|müssen|darf|weißt|gibt|gab)\s+(?:ich|du|wir|ihr|er|es|man|mein\w*|dein\w*|"
    r"unser\w*)\b|"
    r"(?:heb|hebben|heeft|ben|bent|zijn|kan|kun|kunnen|wil|moet|weet|zal)\s+(?:ik|je|jij|we|"
    r"wij|jullie|mijn)\b|"
    r"(?:har|är|kan|ska|vill|vet|hade)\s+(?:jag|du|vi|ni|min|mitt)\b)",
    re.IGNORECASE,
)
# "How" that also means "as" asks before a closed set of complements: "Wie heißt …", "Hoe laat
# …", "Jak się nazywa …", "Как зовут …" (D-313).
_HOW_ASKS = lazy_compile(
    r"^(?:wie (?:heißt|hieß|hießen|heißen|lange|viel|viele|alt|spät|oft|weit|teuer)|"
    r"hoe (?:laat|veel|lang|oud|vaak|ver|duur|heet|heette|heten)|"
    r"jak (?:się nazyw\w+|długo|daleko|często|dużo)|jak se jmenuj\w+|"
    r"как (?:зовут|звали|называ\w+|долго|часто|далеко)|як (?:звати|звуть|називає\w+))(?!\w)",
    re.IGNORECASE,
)
_WORD_HYPHEN = lazy_compile(r"(?<=\w)-(?=\w)")
_CLAUSE_BREAK = lazy_compile(r"[,:;：，；、\-–—()]")
_WH_MAX_TOKENS = 16


def _wh_first(text: str) -> bool:
    """An interrogative opening one clause (no comma or colon): "Wo habe ich …"."""
    found = tokens(text.lstrip("¿¡\"'([«“ "))
    if len(found) < 2 or len(found) > _WH_MAX_TOKENS:
        return False
    if _HOW_ASKS.match(text.lstrip("¿¡\"'([«“ ")):  # a hyphen inside a word breaks nothing
        return not _CLAUSE_BREAK.search(_WORD_HYPHEN.sub("", text))
    if _CLAUSE_BREAK.search(text):
        return False
    if found[0] in _WH_BEFORE_AUX:  # a clitic may stand between: "Chi mi ha …" (D-271)
        verb = next((w for w in found[1:4] if w not in _CLITICS), "")
        return verb in _AUX_AFTER_WH
    return found[0] in _WH_FIRST and found[1] not in _NOT_QUESTION_NEXT


def _standing_request(text: str) -> bool:
    """A polite frame around a standing instruction ("Could you always answer in Greek?",
    "Kannst du mich ab jetzt duzen?") asks for a rule, not for an answer (D-273); one that asks
    something ("Could you always tell me which …") stays a question."""
    start = polite_frame(text)
    if start is None or not STANDING.search(text):
        return False
    return not any(word in TOLD for word in tokens(text[start:start + 80])[:8])


# After "the user asked", a request rather than a question: "asked that …", "asked the agent /
# me to …" (D-371). The asker's object is a closed class, so "asked how to …" still asks.
_REQUESTED = lazy_compile(
    r"\s*(?:that\b(?!\s+question)|(?:(?:the|its|their|his|her)\s+)?(?:agent|assistant|ai|bot|"
    r"model|claude|chatgpt|copilot|me|you|us|him|her|them)\s+(?:not\s+|never\s+)?to\b)",
    re.IGNORECASE,
)


def _asking(text: str) -> bool:
    """An indirect question, a question to the agent or the report of one, as the whole text."""
    match = _ASKING.match(text)
    if match is None:
        return False
    if match.group(0).lower().endswith(("asked", "asks")) and _REQUESTED.match(text, match.end()):
        return False
    rest = tokens(text[match.end():])[:3]
    return not rest or any(word in _ASKED for word in rest) or is_cjk(text[0]) or (
        "\uac00" <= text[0] <= "\ud7af")


def _unmarked_question(text: str) -> bool:
    """A question without a question mark (see the module docstring)."""
    return bool(
        _WH_NO_MARK.match(text) or _AUX_NO_MARK.match(text) or _AUX_FIRST.match(text)
        or _CJK_NO_MARK.search(text) or _FINAL_PARTICLE.search(text)
        or _PARTICLE.search(text) or _IN_PLACE.search(text)
        or _asking(text) or _wh_first(text) or asks_in_place(text)
        or tell_me(text, STANDING.search) or _framed(text)
    )


def _framed(text: str) -> bool:
    """A frame, an interrogative in place or a yes/no ending of `_ask_frames` (D-421); a
    standing word makes the sentence a rule ("me pregunto si …, así que avísame siempre")."""
    frame = FRAMES.match(text)
    asks = (frame is not None and after_frame(text[frame.end():], tokens(text[frame.end():]))
            ) or (not text.isascii() and bool(FRAMES_LAST.search(text[-40:]))
                  ) or in_situ(text) or yes_no_end(text)
    return asks and not STANDING.search(text)
