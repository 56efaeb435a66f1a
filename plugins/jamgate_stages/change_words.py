"""The words that declare a change ("now", "no longer", "switched", "instead of" …) in the
subject stage's seven languages, and the ones that add a fact instead (D-263)."""

from __future__ import annotations

from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._replaced_names import CEASED, moves_from
from jamgate_stages._text import fold, words, wordset
from jamgate_stages.subject import wished

# A change declared in so many words: a text with one of these says something no longer holds.
_CHANGE = lazy_compile(
    r"\b(?:now|no longer|not anymore|anymore|any more|nowadays|these days|switched|changed|"
    r"replaced|instead of|stopped|quit|gave up|"
    # a change of state in so many words: becoming, promotion, an upgrade, a marriage
    r"swapped|traded|ditched|exchanged|"  # a verb of replacing (D-302)
    r"became|become|got promoted|was promoted|upgraded|got married|got divorced|"
    r"jetzt|nun|inzwischen|mittlerweile|nicht mehr|kein\w* \w+ mehr|gewechselt|umgestiegen|"
    r"statt|anstatt|aufgehört|geworden|befördert|geheiratet|geschieden|"
    r"maintenant|désormais|changé|échangé|troqué|ne \w+ plus|n['’]\w+ plus|plus de|passée? à|"
    r"remplacé|au lieu de|"
    r"arrêté|devenue?|promue?|mariée?|divorcée?|"
    r"ahora|ya no|cambié|reemplacé|sustituí|me cambié|en lugar de|en vez de|dejé de|me convertí|"
    r"me hice|"
    r"ascendid[oa]|me casé|me divorcié|"
    r"ora|adesso|cambiato|cambiata|sostituito|non \w+ più|non più|passat[oa] a|invece di|smesso|"
    r"diventat[oa]|"
    r"promoss[oa]|sposat[oa]|divorziat[oa]|"
    r"agora|já não|não \w+ mais|mudei|troquei|substituí|em vez de|parei de|tornei-me|"
    r"me tornei|promovid[oa]|casei|divorciei|"
    # Dutch, Polish, Turkish (D-290)
    r"nu|tegenwoordig|niet meer|geen \w+ meer|overgestapt|gewisseld|in plaats van|"
    r"gestopt met|verhuisd|sinds kort|vervangen|verruild|ingeruild|"
    r"teraz|obecnie|już nie|nie \w+ już|przeszedłem|przeszłam|przesiadłem|przesiadłam|zamiast|"
    r"przestałem|przestałam|rzuciłem|rzuciłam|zostałem|zostałam|przeprowadziłem|"
    r"przeprowadziłam|zmieniłem|zmieniłam|"
    r"artık|şimdi|yerine|bıraktım|geçtim|oldum|taşındım|değiştirdim|"
    # Swedish, Indonesian, Swahili, Vietnamese (D-352)
    r"numera|nuförtiden|inte längre|bytte|bytt|har bytt|istället för|i stället för|slutade|"
    r"slutat|flyttade|har flyttat|blev|har blivit|gifte mig|"
    r"sekarang|kini|tidak lagi|tak lagi|nggak lagi|sudah tidak|pindah ke|ganti ke|ganti jadi|"
    r"beralih ke|berhenti|resign|alih-alih|bukan \w+(?: \w+)? lagi|"
    r"sasa|siku hizi|si\w+(?: \w+){0,2} tena|nimehamia|nimebadilisha|nimeacha|badala ya|"
    r"nimekuwa|bây giờ|giờ (?:tôi|mình)|dạo này|không còn|không(?: \w+){1,3} nữa|chuyển sang|"
    r"đổi sang|thay vì|đã bỏ|trở thành|"
    # a thing sold or given away, "the old one" (D-354)
    r"sold|gave away|the old one|verkauft|vendu|vendí|vendido|venduto|vendi|verkocht|"
    r"sprzedałem|sprzedałam|sattım|dijual|nimeuza|đã bán|cái cũ|sålt|sålde|den gamla)\b"
    r"|(?<!\w)(?:τώρα|πλέον|πια|άλλαξα|αντί για|σταμάτησα|έγινα|παντρεύτηκα|"
    r"χώρισα)(?!\w)",
)  # matched against the lowered text: IGNORECASE made it ~4× slower
# The same in Russian, Ukrainian, Arabic and Hindi (D-290), read only in a text that is not
# ASCII; word edges by lookaround, which Devanagari's vowel signs need (`\b` does not see them
# as word characters).
_CHANGE_WIDE = lazy_compile(
    r"(?<!\w)(?:теперь|больше не|заменил|заменила|замінив|замінила|уже не|перешёл|перешел|"
    r"перешла|вместо|бросил|бросила|"
    r"перестал|перестала|стал|стала|переехал|переехала|поменял|поменяла|сменил|сменила|"
    r"тепер|більше не|вже не|перейшов|перейшла|замість|кинув|кинула|перестав|переїхав|"
    r"переїхала|змінив|змінила|"
    r"الآن|لم أعد|لم اعد|بدلاً من|بدلا من|توقفت|انتقلت|أصبحت|اصبحت|غيرت|غيّرت|"
    r"अब|की जगह|के बजाय|बदल|छोड़ दिया|छोड़ दी|शिफ्ट|"
    # more Arabic, Hebrew and Persian (D-352)
    r"صار|صرت|أصبح|اصبح|تركت|انتقل|انتقلنا|بدّلت|بدلت|"
    r"עכשיו|כבר לא|עברתי|החלפתי|במקום|הפסקתי|עזבתי|נהייתי|התחתנתי|"
    r"الان|اکنون|دیگر(?: \S+){0,2} (?:نیستم|نمی\S*)|دیگه(?: \S+){0,2} نمی\S*|عوض کردم|"
    r"تغییر دادم|به جای|بجای|نقل مکان کردم|ترک کردم|"
    r"продал|продала|продав|продала|отдал|отдала|віддав|віддала|بعت|מכרתי|ומכרתי|فروختم|"
    r"बेच|πούλησα)(?!\w)",
)
# And in Chinese, Japanese and Korean, as substrings (no spaces between words, or particles
# fused to them): now, no longer, switched to, instead of, quit, moved, became, married.
_CHANGE_CJK = lazy_compile(
    r"现在|現在|不再|已经不|已經不|改用|换成|換成|换了|換了|改成|搬到|搬去|而不是|成为了|成為了|"
    r"升职|升職|结婚了|結婚了|辞职|辭職|戒了|"
    r"今は|今では|現在は|もう[^。！？]*(?:ない|ません)|乗り換え|切り替え|変えた|変えました|"
    r"代わりに|やめた|やめました|辞めた|辞めました|引っ越した|引っ越しました|転職|"
    r"結婚した|結婚しました|昇進|"
    r"이제|지금은|더 이상|더는|바꿨|바꾸었|대신|그만뒀|그만두었|끊었|이사했|이사 갔|이직|"
    r"결혼했|승진|卖了|賣了|卖掉|賣掉|売った|売りました|팔았"
)
# A cessation in so many words, beyond `CEASED`'s frames: "not anymore", "nicht mehr", "ne …
# plus", "non … più", "não … mais", "δεν … πια", "niet meer", "不再", "अब … नहीं" (D-307).
_CEASES = lazy_compile(
    r"\b(?:not anymore|anymore|any more|nicht mehr|kein\w* \w+ mehr|ne \w+ plus|n['’]\w+ plus|"
    r"non \w+ più|non più|não \w+ mais|niet meer|geen \w+ meer|nie \w+ już|inte längre|"
    r"tidak lagi|tak lagi|nggak lagi|si\w+(?: \w+){0,2} tena|không còn|không(?: \w+){1,3} nữa)\b"
    r"|(?<!\w)(?:כבר לא|دیگر(?: \S+){0,2} (?:نیستم|نمی))"
    r"|(?<!\w)δεν \w+ πια(?!\w)|不再|已经不|已經不|अब\b.*\bनहीं")
# The annotation by which the classifier leaves a refusal to the change stage (D-289): the
# candidate reads as passing state but declares a change, so it is refused (reason code,
# message) unless it updates a live fact of the person's.
PENDING_REFUSAL = "refused_unless_update"
# Words that add a fact beside the old one instead of replacing it.
_ADDITION = frozenset(map(fold, wordset("""also too another second additionally auch zweite
    zweiten aussi autre deuxième también otro otra segundo segunda anche altro altra secondo
    seconda também outro outra επίσης δεύτερο δεύτερη ook tweede też także również drugi
    druga drugie тоже также ещё еще второй вторая теж також ще другий друга ayrıca ikinci
    أيضا أيضاً كذلك भी दूसरा दूसरी också även andra juga kedua pia cũng thêm גם נוסף هم همچنین
    دوم""")))
# The same in scripts written without spaces, as substrings ("我还养了一条狗", "또 …").
_ADDITION_CJK = ("也", "还", "還", "另外", "第二", "また", "さらに", "二つ目", "또 ", "또한",
                 "두 번째")
# The person speaking of themselves, where the holder rules read no opening (D-290): a first
# person pronoun that opens the text, in languages the subject stage does not read.
FIRST_PERSON = frozenset(map(fold, wordset("""ik wij ja my я мы ми ben biz أنا انا نحن मैं हम
    jag vi jeg minä mä én eu já""")))
# The same, read only as the first word: Vietnamese and Indonesian put the possessive after
# the noun ("Vợ tôi …", "Istri saya …" are the wife's), so later in the text it is no holder.
FIRST_PERSON_OPENING = frozenset(map(fold, wordset("""saya aku tôi mình mimi אני""")))
# Someone in the person's life opening the text, where the possessive follows the noun or is
# fused to it ("Vợ tôi …", "Istri saya …", "Mume wangu …", "אחותי …", "خواهرم …", "أختي …"):
# another person's fact, which the holder rules cannot read (D-353). Compared unfolded: "mẹ"
# folded is Spanish "me".
RELATIVES_OPENING = frozenset(map(str.lower, wordset("""vợ chồng mẹ bố má bạn sếp istri
    suami ibu ayah bapak kakak adik anak teman pacar bos mke mume mama baba kaka dada mdogo
    rafiki mtoto bosi אשתי בעלי אחי אחותי אמי אבי חברי חברתי בני בתי הבוס همسرم شوهرم زنم
    برادرم خواهرم مادرم پدرم دوستم پسرم دخترم رئیسم زوجتي زوجي أخي اخي أختي اختي أمي امي أبي
    ابي صديقي صديقتي ابني ابنتي مديري""")))
# A possessive of the first person opening the text, in those languages: what follows names
# something of the person's, or a relative ("Mijn broer …"), which the holder rules cannot tell.
_POSSESSIVE = frozenset(map(fold, wordset("""mijn onze ons mój moja moje moi nasz nasza nasze
    мой моя моё мое мои наш наша наше наши мій моє мої benim bizim min mitt mina vår mitt
    minun mein meu mea""")))
# "New" after a possessive: the thing it names replaced an older one (D-306).
_NEW = frozenset(map(fold, wordset("""new nieuwe nieuw neue neuer neues neuen nouveau nouvel
    nouvelle nuevo nueva nuovo nuova novo nova νέο νέος νέα καινούργιο καινούργιος καινούργια
    nowy nowa nowe новый новая новое новые новий нова нове нові yeni नया नई नए""")))
# Possessives before "new" that `_POSSESSIVE` lacks (French, Spanish, Italian, Portuguese,
# Turkish, Hindi; an article before them is skipped: "il mio nuovo", "a minha nova").
_NEW_OWNERS = _POSSESSIVE | frozenset(map(fold, wordset("""mon ma mes mi mis mio mia miei mie
    meu minha meus minhas benim मेरा मेरी मेरे""")))
_RENEWED_CJK = ("新", "새")
_NEW_STEM = lazy_compile(r"new|nieuw|neu|nouve|nuev|nuov|nov[oa]|now[yae]|νέ|καινο[υύ]ργ|нов|"
                         r"yeni|नया|नई|नए")
_POSSESSIVE_CJK = ("我的", "我们的", "我們的", "私の", "僕の", "俺の", "내 ", "제 ", "나의", "저의")
_FIRST_PERSON_CJK = ("我", "私は", "私が", "僕は", "僕が", "俺は", "わたしは", "나는", "내가",
                     "저는", "제가")
# Marker and negation words, left out when the texts' words are compared.
MARKER_WORDS = frozenset(map(fold, wordset("""now no longer anymore any more nowadays these
    days switched changed replaced instead of stopped quit gave up from to jetzt nun inzwischen
    mittlerweile nicht mehr gewechselt umgestiegen statt anstatt aufgehört maintenant désormais
    plus passé passée remplacé au lieu arrêté ahora ya cambié lugar en vez dejé ora adesso più
    passato passata invece smesso agora já não mais mudei para troquei changé cambiato cambiata
    em parei τώρα πλέον πια swapped traded ditched exchanged échangé troqué reemplacé sustituí
    sostituito substituí vervangen verruild ingeruild заменил заменила замінив замінила
    άλλαξα αντί για σταμάτησα became become got promoted was upgraded married divorced
    geworden befördert geheiratet geschieden devenu devenue promu promue marié mariée divorcé
    divorcée convertí hice ascendido ascendida casé divorcié diventato diventata promosso
    promossa sposato sposata divorziato divorziata tornei promovido promovida casei divorciei
    έγινα παντρεύτηκα χώρισα not no never don t doesn didn won isn aren non ne pas nicht kein
    keine keinen keiner nie não nao δεν μην
    nu tegenwoordig niet meer geen overgestapt gewisseld in plaats van gestopt met verhuisd
    sinds kort teraz obecnie już nie przeszedłem przeszłam przesiadłem przesiadłam zamiast
    przestałem przestałam rzuciłem rzuciłam zostałem zostałam przeprowadziłem przeprowadziłam
    się zmieniłem zmieniłam теперь больше не уже перешёл перешел перешла вместо бросил бросила
    перестал перестала стал стала переехал переехала поменял поменяла сменил сменила тепер
    більше вже перейшов перейшла замість кинув кинула перестав переїхав переїхала змінив
    змінила artık şimdi yerine bıraktım geçtim oldum taşındım değiştirdim الآن لم أعد اعد
    بدلاً بدلا من توقفت انتقلت أصبحت اصبحت غيرت غيّرت अब की जगह के बजाय बदल छोड़ दिया दी
    शिफ्ट numera nuförtiden inte längre bytte bytt har istället stället för slutade slutat
    flyttade flyttat blev blivit sekarang kini tidak tak nggak lagi sudah pindah ke ganti jadi
    beralih berhenti resign alih sasa siku hizi tena nimehamia nimebadilisha nimeacha badala ya
    nimekuwa bây giờ dạo này không còn nữa chuyển sang đổi thay vì đã bỏ trở thành صار صرت أصبح
    اصبح تركت انتقل انتقلنا بدّلت بدلت עכשיו כבר לא עברתי החלפתי במקום הפסקתי עזבתי נהייתי
    התחתנתי الان اکنون دیگر دیگه عوض کردم تغییر دادم به جای بجای نقل مکان ترک""")))


def declares_change(text: str) -> bool:
    """Whether the text says that something no longer holds (and is not a wish or an addition)."""
    lowered = text.lower()
    if not (any(not wished(lowered, match.start()) for match in _CHANGE.finditer(lowered))
            or any(not wished(lowered, start) for start in moves_from(lowered))
            or _renewed(lowered)
            or (not text.isascii()
                and (_CHANGE_WIDE.search(lowered) or _CHANGE_CJK.search(lowered)))):
        return False
    if _CEASES.search(lowered) or CEASED.search(lowered):
        return True  # "no longer X" replaces X whatever it adds beside (D-307)
    if any(marker in text for marker in _ADDITION_CJK):
        return False
    return not any(fold(word) in _ADDITION for word in words(text))


def _renewed(lowered: str) -> bool:
    """Whether the text opens with the person's "new" something ("Mijn nieuwe telefoon …",
    "मेरा नया फ़ोन नंबर …", "我的新手机 …"): the one it replaces is no longer theirs (D-306;
    English "my new X is …" is the subject stage's, D-264)."""
    stripped = lowered.lstrip()
    for mark in _POSSESSIVE_CJK:
        if stripped.startswith(mark):
            return stripped[len(mark):].lstrip().startswith(_RENEWED_CJK)
    if not _NEW_STEM.search(stripped[:60]):
        return False  # no "new" among the first words: most texts stop here
    opening = [fold(word) for word in words(stripped[:60])[:3]]
    if "μου" in opening[1:3]:  # Greek puts it after: "Το νέο μου τηλέφωνο …"
        return any(word in _NEW for word in opening)
    mine = [i for i, word in enumerate(opening[:2]) if word in _NEW_OWNERS]
    return bool(mine) and any(word in _NEW for word in opening[mine[0] + 1:])


def possessed(text: str) -> str | None:
    """What of the person's the text opens with ("Mijn favoriete band …" → "favoriete",
    "我的手机 …" → "手机"; a "new" before it skipped: "Mijn nieuwe telefoon" → "telefoon"),
    or None."""
    stripped = text.lstrip()
    for mark in _POSSESSIVE_CJK:
        if stripped.startswith(mark):
            rest = stripped[len(mark):].lstrip()
            rest = rest[1:] if rest.startswith(_RENEWED_CJK) else rest
            return rest[:2] or None
    opening = [fold(word) for word in words(stripped)[:3]]
    if opening[:1] and opening[0] in _POSSESSIVE:
        named = [word for word in opening[1:] if word not in _NEW]
        return named[0] if named else None
    return None


def speaks_of_self(text: str) -> bool:
    """Whether the person speaks of themselves in the text's first words ("Я живу …", "Теперь
    я пью …", "Ik werk …", "我住在 …"), not of something of theirs ("我的妹妹 …")."""
    stripped = text.lstrip()
    if stripped.startswith(_FIRST_PERSON_CJK):
        return not stripped.startswith(("我的", "我們的", "我们的"))
    opening = [fold(word) for word in words(stripped)[:3]]
    return (any(word in FIRST_PERSON for word in opening)
            or (bool(opening) and opening[0] in FIRST_PERSON_OPENING))
