"""Home and work said whole, in languages the holder rules do not read (D-301).

The subject stage derives `location` and `employer` only where `holder` reads whose fact a text
is: Latin and Greek openings, and the seven languages of its word tables. In Chinese, Japanese
and Korean the person often drops the pronoun ("서울에 살아요", "東京に住んでいます"), and in
Dutch, Russian, Ukrainian, Polish or Turkish the tables hold no verb of living or working, so
"我住在北京" and "我搬到上海了" shared no subject and no word, and the move retired nothing.

Each phrase here is the whole sentence: an optional first-person opening and "now" word, the
slot's verb in the present (live, work) or of the change itself (moved to, joined), a short
place or organisation, and the end of the sentence. Anything else — a relative or a name before
the verb, a negation, a past tense, a wish ("我想搬到 …"), a clause after it — leaves the text
unmatched, and an unmatched text gets no subject, which never retires anything (D-040).
"""

from __future__ import annotations

import re

from jamgate_stages._lazy_re import lazy_compile

# A short name of a place or an organisation: no sentence mark, no space (CJK), at most 16
# characters; in Japanese no topic or subject particle either ("妹は大阪に …" is the sister's).
_CJK_NAME = r"[^\s，,、。．.！!？?；;：:]{1,16}"
_JA_NAME = r"[^\s，,、。．.！!？?；;：:はが]{1,16}"
_END = r"\s*[。．.！!।]?\s*$"
# A time said before the slot's verb ("今年三月", "先月、", "지난달에"): when it changed, not whose.
_ZH_TIME = (r"(?:(?:今年|去年|上个月|上個月|上周|上週|前不久|[0-9一二三四五六七八九十]+月份?)"
            r"[，,、]?)*")
_ZH_I = rf"{_ZH_TIME}(?:我|我们|我們|用户|用戶|使用者)?{_ZH_TIME}"
_ZH_NOW = r"(?:现在|現在|目前|已经|已經|刚|剛|最近|今年)?"
_JA_TIME = (r"(?:(?:先月|先週|去年|昨年|今年|今月|この春|この夏|この秋|この冬|"
            r"[0-9０-９一二三四五六七八九十]+月(?:に|から)?)[、,]?)*")
_JA_I = rf"{_JA_TIME}(?:(?:私|僕|俺|わたし|ぼく|ユーザー(?:さん)?)(?:は|が))?{_JA_TIME}"
_JA_NOW = r"(?:今は|今|現在は|現在|最近)?"
_KO_TIME = r"(?:(?:지난달에?|지난주에?|작년에?|올해|올해부터|이번\s+달에?|\d+월에?|\d+월부터)\s+)*"
_KO_I = rf"{_KO_TIME}(?:(?:저는|나는|제가|내가|저희는|우리는|사용자는|사용자가)\s+)?{_KO_TIME}"
_KO_NOW = r"(?:(?:지금은|이제|이제는|요즘|요즘은|현재|현재는|최근에)\s+)?"
_RU_NOW = r"(?:(?:теперь|сейчас|тепер|зараз)\s+)?"
# "Since spring", "since 2023", "recently" before the verb (the pronoun is often dropped).
_RU_TIME = (r"(?:(?:с|со|з|із)\s+\w+(?:\s+года|\s+року)?\s+|недавно\s+|нещодавно\s+|"
            r"в\s+прошлом\s+месяце\s+|минулого\s+місяця\s+)?")
_RU_I = rf"{_RU_TIME}{_RU_NOW}(?:(?:я|мы|ми)\s+)?{_RU_TIME}{_RU_NOW}"
# A name that opens with a capital letter: where an organisation is left for another, a team
# or a field ("перешёл из бэкенда во фронтенд") is no employer.
_PROPER = r"(?-i:[A-ZА-ЯЁІЇЄҐŁŚŻŹĆŃÓÇĞİÖŞÜ0-9])"
_PL_TIME = r"(?:(?:od|w)\s+\w+\s+|niedawno\s+|(?:w\s+)?zeszłym\s+miesiącu\s+)?"
_TR_TIME = r"(?:(?:geçen|bu)\s+(?:ay|yıl|hafta|sene)\s+|(?:\w+\s+)?(?:ayından|yılından)\s+beri\s+)?"
# Words of a Latin or Cyrillic name: one to three, each opening the word ("Den Haag", "Нью-Йорк").
_NAME = r"\w[\w'’.-]*(?:\s+\w[\w'’.-]*){0,2}"

# The person, said or dropped, or named as an agent notes it ("The user …"), and a "now" or a
# time before the verb, in the languages below (a relative or a name there leaves it unread).
_AR_NOW = r"(?:(?:الآن|حاليا|حاليًا|مؤخرا|مؤخرًا|لقد|قد)\s+)*"
_AR_I = rf"(?:(?:أنا|انا|نحن)\s+)?{_AR_NOW}"
# Arabic names carry marks (shadda, tanwin) that are no word characters: "عمّان".
_AR_NAME = r"[^\s.،,!؟?]+(?:\s+[^\s.،,!؟?]+){0,2}"
_AR_USER = rf"(?:المستخدم|المستخدمة)\s+{_AR_NOW}"
_HE_I = r"(?:(?:אני|אנחנו|המשתמש|המשתמשת)\s+)?(?:(?:עכשיו|כיום|לאחרונה)\s+)?"
_HE_USER = r"(?:המשתמש|המשתמשת)\s+(?:(?:עכשיו|כיום|לאחרונה)\s+)?"
_HE_WHEN = r"(?:\s+(?:בחודש\s+שעבר|בשנה\s+שעברה|לאחרונה|השנה))?"
_FA_NOW = (r"(?:(?:الان|اکنون|حالا|اخیراً|اخیرا|تازگی|ماه\s+پیش|سال\s+پیش|امسال)\s+)*")
_FA_I = rf"{_FA_NOW}(?:(?:من|ما)\s+)?{_FA_NOW}"
_FA_USER = rf"{_FA_NOW}کاربر\s+{_FA_NOW}"
_FA_NAME = r"[\w\u200c][\w\u200c'’.-]*(?:\s+[\w\u200c][\w\u200c'’.-]*){0,2}"
_HI_TIME = (r"(?:(?:पिछले\s+(?:महीने|साल|हफ़्ते|हफ्ते)|इस\s+साल|हाल\s+ही\s+में|अब|आजकल)"
            r"\s+)*")
_HI_WHO = r"(?:मैं|हम|यूज़र|यूजर)\s+(?:(?:अब|आजकल)\s+)?"
# A name of one or two words, neither a possessive, a pronoun or a relative ("मेरी बहन …").
_HI_NOT = (r"(?!(?:मेरी|मेरा|मेरे|हमारी|हमारा|हमारे|उसकी|उसका|उसके|उनकी|उनका|उनके|आपकी|आपका|"
           r"आपके|वह|वो|वे|ये|यह|बहन|भाई|माँ|मां|पिता|पापा|पत्नी|पति|दोस्त|बेटा|बेटी)(?:\s|$))")
_HI_NAME = rf"{_HI_NOT}[^\s।,.]+(?:\s+{_HI_NOT}[^\s।,.]+)?"
_SV_I = r"(?:(?:nu|numera)\s+)?(?:(?:jag|vi|användaren)\s+)?(?:(?:nu|numera)\s+)?"
_ID_I = (r"(?:(?:sekarang|sejak\s+\w+|bulan\s+lalu|tahun\s+lalu)\s+)?(?:(?:saya|aku|kami|"
         r"pengguna)\s+)?(?:(?:sekarang|kini|sudah|baru|sejak\s+\w+)\s+)*")
_SW_I = r"(?:(?:mimi|sisi)\s+)?(?:(?:sasa|kwa\s+sasa)\s+)?"
_SW_USER = r"mtumiaji\s+(?:(?:sasa|kwa\s+sasa)\s+)?"
_VI_I = (r"(?:(?:giờ|bây\s+giờ|hiện\s+nay|dạo\s+này|hiện\s+tại)\s+)?(?:(?:tôi|mình|người\s+dùng)"
         r"\s+)?(?:(?:hiện|đang|giờ|bây\s+giờ|hiện\s+đang)\s+)*")
_VI_NAME = r"\w[\w'’.-]*(?:\s+\w[\w'’.-]*){0,4}"
_VI_WHEN = r"(?:\s+(?:từ\s+)?(?:tháng\s+trước|năm\s+ngoái|năm\s+nay|gần\s+đây))?"

_PATTERNS: tuple[tuple[str, str], ...] = (
    # Chinese: 我住在北京 / 我搬到上海了 / 我在阿里巴巴工作 / 我加入了腾讯
    ("location", rf"^{_ZH_I}{_ZH_NOW}(?:住在|住於|住于|生活在){_CJK_NAME}{_END}"),
    ("location", rf"^{_ZH_I}{_ZH_NOW}(?:搬到|搬去|搬家到|搬來|搬来)(?:了)?{_CJK_NAME}{_END}"),
    ("employer", rf"^{_ZH_I}{_ZH_NOW}在{_CJK_NAME}(?:工作|上班|任职|任職)(?:了)?{_END}"),
    ("employer", rf"^{_ZH_I}{_ZH_NOW}(?:跳槽到|跳槽去|入职了|入職了|入职|入職|加入了){_CJK_NAME}"
                 rf"{_END}"),
    # Japanese: 東京に住んでいます / 大阪に引っ越しました / 楽天で働いています / 転職しました
    ("location", rf"^{_JA_I}{_JA_NOW}{_JA_NAME}に(?:住んでいます|住んでいる|住んでる|"
                 rf"住んでおります|暮らしています|暮らしている){_END}"),
    ("location", rf"^{_JA_I}{_JA_NOW}{_JA_NAME}(?:に|へ)引っ越し(?:ました|た){_END}"),
    ("employer", rf"^{_JA_I}{_JA_NOW}{_JA_NAME}で(?:[^\s、。はが]{{1,12}}として)?"
                 rf"(?:働いています|働いている|働いてる|勤務しています){_END}"),
    ("employer", rf"^{_JA_I}{_JA_NOW}{_JA_NAME}(?:に勤めています|に勤めている|に勤務しています)"
                 rf"{_END}"),
    ("employer", rf"^{_JA_I}{_JA_NOW}{_JA_NAME}(?:に転職しました|に転職した|に入社しました|"
                 rf"に入社した){_END}"),
    # Korean: 서울에 살아요 / 부산으로 이사했어요 / 삼성에서 일해요 / 네이버로 이직했어요
    ("location", rf"^{_KO_I}{_KO_NOW}\S+(?:에|에서)\s+(?:살아요|삽니다|살아|살고\s+있어요|"
                 rf"살고\s+있습니다|살고\s+있어){_END}"),
    ("location", rf"^{_KO_I}{_KO_NOW}\S+(?:으로|로)\s+이사(?:했어요|했습니다|했어|왔어요|"
                 rf"왔습니다|갔어요|갔습니다){_END}"),
    ("employer", rf"^{_KO_I}{_KO_NOW}\S+에서\s+(?:\S+(?:으로|로)\s+)?(?:일해요|일합니다|일해|"
                 rf"일하고\s+있어요|일하고\s+있습니다|근무해요|근무합니다|근무하고\s+있어요|근무하고\s+있습니다)"
                 rf"{_END}"),
    ("employer", rf"^{_KO_I}{_KO_NOW}\S+(?:으로|로)\s+이직(?:했어요|했습니다|했어){_END}"),
    ("employer", rf"^{_KO_I}{_KO_NOW}\S+에\s+입사(?:했어요|했습니다|했어){_END}"),
    # Dutch: Ik woon in Utrecht / Ik ben verhuisd naar Amsterdam / Ik werk bij ING
    ("location", rf"^(?:ik|wij|we)\s+(?:woon|wonen)\s+(?:nu\s+|tegenwoordig\s+|sinds\s+kort\s+)?"
                 rf"(?:in|op)\s+{_NAME}{_END}"),
    ("location", rf"^(?:ik|wij|we)\s+(?:ben|zijn)\s+(?:net\s+|onlangs\s+|pas\s+)?verhuisd\s+"
                 rf"naar\s+{_NAME}{_END}"),
    ("employer", rf"^(?:ik|wij|we)\s+(?:werk|werken)\s+(?:nu\s+|tegenwoordig\s+)?(?:bij|voor)\s+"
                 rf"{_NAME}{_END}"),
    # Russian, Ukrainian: Я живу в Москве / Я переехал в Тбилиси / Я работаю в Яндексе
    ("location", rf"^{_RU_I}(?:живу|живём|живем|живемо)\s+(?:в|во|у)\s+{_NAME}{_END}"),
    ("location", rf"^{_RU_I}(?:переехал|переехала|переехали|переїхав|переїхала|переїхали)\s+"
                 rf"(?:в|во|у|до)\s+{_NAME}{_END}"),
    ("employer", rf"^{_RU_I}(?:работаю|працюю)\s+(?:в|во|у|на)\s+{_NAME}{_END}"),
    ("employer", rf"^{_RU_I}(?:перешёл|перешел|перешла|перейшов|перейшла)\s+(?:из|с|з|із)\s+"
                 rf"{_PROPER}{_NAME}\s+(?:в|во|у|до|на)\s+{_PROPER}{_NAME}{_END}"),
    # Polish: Mieszkam w Krakowie / Przeprowadziłem się do Gdańska / Pracuję w Allegro
    ("location", rf"^{_PL_TIME}(?:teraz\s+|obecnie\s+)?mieszkam\s+(?:teraz\s+|obecnie\s+)?"
                 rf"(?:w|we|na)\s+{_NAME}{_END}"),
    ("location", rf"^{_PL_TIME}(?:przeprowadziłem|przeprowadziłam)\s+się\s+(?:do|na)\s+"
                 rf"{_NAME}{_END}"),
    ("employer", rf"^{_PL_TIME}(?:teraz\s+|obecnie\s+)?pracuję\s+(?:teraz\s+|obecnie\s+)?"
                 rf"(?:w|we|dla)\s+{_NAME}{_END}"),
    ("employer", rf"^{_PL_TIME}(?:przeszedłem|przeszłam)\s+z\s+{_PROPER}{_NAME}\s+do\s+"
                 rf"{_PROPER}{_NAME}{_END}"),
    # Turkish: İstanbul'da yaşıyorum / İzmir'e taşındım / Trendyol'da çalışıyorum
    ("location", rf"^{_TR_TIME}(?:ben\s+)?(?:artık\s+|şimdi\s+)?{_NAME}['’]?(?:da|de|ta|te)\s+"
                 rf"(?:yaşıyorum|oturuyorum){_END}"),
    ("location", rf"^{_TR_TIME}(?:ben\s+)?{_NAME}['’]?(?:a|e|ya|ye)\s+taşındım{_END}"),
    ("employer", rf"^{_TR_TIME}(?:ben\s+)?(?:artık\s+|şimdi\s+)?{_NAME}['’]?(?:da|de|ta|te)\s+"
                 rf"(?:\w+\s+olarak\s+)?çalışıyorum{_END}"),
    # Arabic: أسكن في الرياض / انتقلت إلى جدة / أعمل مهندسًا في أرامكو / انضممت إلى سابك
    ("location", rf"^(?:{_AR_I}(?:أسكن|اسكن|أعيش|اعيش|نسكن|نعيش)|{_AR_USER}(?:يسكن|تسكن|يعيش|"
                 rf"تعيش))\s+"
                 rf"(?:الآن\s+|حاليا\s+|حاليًا\s+)?(?:في|ب)\s*{_AR_NAME}{_END}"),
    ("location", rf"^(?:{_AR_I}(?:انتقلت|انتقلنا)|{_AR_USER}(?:انتقل|انتقلت))\s+"
                 rf"(?:للعيش\s+|للسكن\s+)?"
                 rf"(?:إلى|الى|ل)\s*{_AR_NAME}{_END}"),
    ("employer", rf"^(?:{_AR_I}(?:أعمل|اعمل|أشتغل|اشتغل)|{_AR_USER}(?:يعمل|تعمل))\s+"
                 rf"(?:الآن\s+|حاليا\s+|حاليًا\s+)?"
                 rf"(?:\S+\s+)?(?:في|لدى|مع|ب)\s*{_AR_NAME}{_END}"),
    ("employer", rf"^{_AR_I}(?:تركت\s+{_AR_NAME}\s+و)?(?:انضممت|التحقت|انتقلت\s+للعمل)\s+"
                 rf"(?:إلى|الى|ب)\s*{_AR_NAME}{_END}"),
    # Hebrew: אני גר בחיפה / עברתי לתל אביב / אני עובד באינטל
    ("location", rf"^{_HE_I}(?:גר|גרה|גרים|גרות)\s+(?:עכשיו\s+|כיום\s+)?ב-?{_NAME}{_END}"),
    ("location", rf"^(?:{_HE_I}(?:עברתי|עברנו)|{_HE_USER}(?:עבר|עברה))\s+(?:לגור\s+)?"
                 rf"(?:ל-?|אל\s+){_NAME}{_HE_WHEN}{_END}"),
    ("employer", rf"^{_HE_I}(?:עובד|עובדת|עובדים)\s+(?:עכשיו\s+|כיום\s+)?(?:ב-?|אצל\s+){_NAME}"
                 rf"{_END}"),
    # Persian: در تهران زندگی می‌کنم / به شیراز نقل مکان کردم / در دیجی‌کالا کار می‌کنم
    ("location", rf"^{_FA_I}در\s+{_FA_NAME}\s+زندگی\s+می[\u200c ]?(?:کنم|کنیم){_END}"),
    ("location", rf"^{_FA_USER}در\s+{_FA_NAME}\s+زندگی\s+می[\u200c ]?کند{_END}"),
    ("location", rf"^{_FA_I}به\s+{_FA_NAME}\s+(?:نقل[\u200c ]مکان|اسباب[\u200c ]?کشی|مهاجرت)\s+"
                 rf"(?:کردم|کردیم|کرده‌ام){_END}"),
    ("employer", rf"^{_FA_I}در\s+{_FA_NAME}\s+کار\s+می[\u200c ]?کنم{_END}"),
    ("employer", rf"^{_FA_USER}در\s+{_FA_NAME}\s+کار\s+می[\u200c ]?کند{_END}"),
    # Hindi: मैं पुणे में रहता हूँ / मैं बेंगलुरु शिफ्ट हो गया / मैं इंफोसिस में काम करता हूँ
    ("location", rf"^{_HI_TIME}(?:{_HI_WHO})?{_HI_NAME}\s+में\s+(?:रहता|रहती|रहते)\s+"
                 rf"(?:हूँ|हूं|हैं|है){_END}"),
    ("location", rf"^{_HI_TIME}{_HI_WHO}{_HI_NAME}\s+(?:में\s+)?(?:शिफ्ट|शिफ़्ट)\s+(?:हो\s+)?"
                 rf"(?:गया|गई|गए|किया|कर\s+लिया)(?:\s+(?:हूँ|हूं|है|हैं))?{_END}"),
    ("employer", rf"^{_HI_TIME}(?:{_HI_WHO})?{_HI_NAME}\s+में\s+(?:काम|नौकरी)\s+(?:करता|करती|करते)\s+"
                 rf"(?:हूँ|हूं|हैं|है){_END}"),
    # Swedish: Jag bor i Malmö / Jag har flyttat till Lund / Jag jobbar på Spotify
    ("location", rf"^{_SV_I}bor\s+(?:jag\s+|vi\s+)?(?:nu\s+|numera\s+)?(?:i|på)\s+{_NAME}{_END}"),
    ("location", rf"^{_SV_I}(?:har\s+)?(?:flyttat|flyttade)\s+(?:hem\s+)?till\s+{_NAME}{_END}"),
    ("employer", rf"^{_SV_I}(?:jobbar|arbetar)\s+(?:jag\s+|vi\s+)?(?:nu\s+|numera\s+)?"
                 rf"(?:på|för|hos)\s+{_NAME}{_END}"),
    # Indonesian: Saya tinggal di Bandung / Saya pindah ke Malang / Saya kerja di Gojek
    ("location", rf"^{_ID_I}(?:tinggal|menetap)\s+(?:sekarang\s+)?di\s+{_NAME}{_END}"),
    ("location", rf"^{_ID_I}(?:pindah|pindahan)\s+(?:rumah\s+)?ke\s+{_NAME}{_END}"),
    ("employer", rf"^{_ID_I}(?:kerja|bekerja|ngantor)\s+(?:sekarang\s+)?(?:di|untuk)\s+"
                 rf"{_NAME}{_END}"),
    # Swahili: Ninaishi Nairobi / Nimehamia Mombasa / Ninafanya kazi Safaricom
    ("location", rf"^(?:{_SW_I}(?:ninaishi|naishi|tunaishi|ninakaa|nakaa)|{_SW_USER}anaishi)\s+"
                 rf"(?:sasa\s+)?(?:huko\s+)?{_NAME}{_END}"),
    ("location", rf"^(?:{_SW_I}(?:nimehamia|nilihamia|tumehamia)|{_SW_USER}amehamia)\s+"
                 rf"{_NAME}{_END}"),
    ("employer", rf"^(?:{_SW_I}(?:ninafanya|nafanya)|{_SW_USER}anafanya)\s+kazi\s+"
                 rf"(?:katika\s+|kwenye\s+|na\s+|kwa\s+)?{_NAME}{_END}"),
    # Vietnamese: Tôi sống ở Hà Nội / Tôi đã chuyển vào Sài Gòn / Tôi làm việc ở FPT
    ("location", rf"^{_VI_I}sống\s+(?:ở|tại)\s+{_VI_NAME}{_VI_WHEN}{_END}"),
    ("location", rf"^{_VI_I}(?:đã\s+|mới\s+|vừa\s+)?(?:chuyển|dọn)\s+(?:nhà\s+)?"
                 rf"(?:vào|ra|đến|tới|về|sang|lên|xuống)\s+{_VI_NAME}{_VI_WHEN}{_END}"),
    ("employer", rf"^{_VI_I}(?:làm\s+việc|làm)\s+(?:ở|tại|cho)\s+{_VI_NAME}{_END}"),
)
# The verbs above, searched first: most texts hold none of them and are not read further. One
# search a script (an alternation of every language's verbs cost 14 µs a text, D-350), in the
# lowered text: IGNORECASE is slower.
_LATIN = (r"woon|wonen|verhuisd|werk|mieszkam|przeprowadzi|pracuj|przesz|yaşıyorum|oturuyorum|"
          r"taşındım|çalışıyorum|bor i|bor på|bor jag|bor vi|bor nu|bor numera|flytta|jobbar|"
          r"arbetar|tinggal di|menetap|pindah|kerja|ngantor|naishi|nakaa|hamia|fanya kazi")
_VERBS = {
    "latin": lazy_compile(_LATIN + r"|sống|chuyển|dọn|làm ở|làm tại|làm cho|làm việc"),
    "cjk": lazy_compile(r"住|搬|工作|上班|任职|任職|跳槽|入职|入職|加入了|暮らし|引っ越し|"
                        r"働い|勤め|勤務|転職|入社|살|이사|일해|일합|일하|근무|이직|입사"),
    "cyrillic": lazy_compile(r"живу|живём|живем|переехал|переїха|работаю|працюю|перешёл|перешел|"
                             r"перешла|перейш"),
    "arabic": lazy_compile(r"سكن|أعيش|اعيش|نعيش|يعيش|تعيش|انتقل|أعمل|اعمل|أشتغل|اشتغل|يعمل|تعمل|"
                           r"انضممت|التحقت|زندگی می|مکان کرد|کشی کرد|مهاجرت کرد|کار می"),
    "hebrew": lazy_compile(r"גר ב|גרה ב|גרים ב|גרות ב|עברתי|עברנו|עבר ל|עברה ל|עובד"),
    "devanagari": lazy_compile(r"रहत|रहते|शिफ|काम कर|नौकरी कर"),
}
_COMPILED = tuple((slot, lazy_compile(pattern, re.IGNORECASE)) for slot, pattern in _PATTERNS)


def _script(text: str) -> str:
    """The script of the text's first letter beyond ASCII (Latin when there is none)."""
    for char in text:
        if char > "\x7f":
            point = ord(char)
            if point < 0x370 or 0x1E00 <= point < 0x1F00:
                return "latin"
            if point < 0x530:
                return "cyrillic" if point >= 0x400 else "latin"
            if point < 0x600:
                return "hebrew"
            if point < 0x780 or 0xFB50 <= point < 0xFF00:
                return "arabic"
            if 0x900 <= point < 0x980:
                return "devanagari"
            return "cjk"
    return "latin"


def slot_phrase(text: str) -> str | None:
    """`location` or `employer` where the whole text is the person's home or work said in one
    of these languages, else None (texts over 80 characters are not read)."""
    stripped = text.strip()
    if len(stripped) > 80:
        return None
    lowered = stripped.lower()
    if not _VERBS[_script(lowered)].search(lowered):
        return None
    for slot, pattern in _COMPILED:
        if pattern.match(stripped):
            return slot
    return None
