"""Requests for this turn in the languages the one-off rule's verb lists lack (D-422).

The one-off rule (`junk.is_one_off`) knows a request by an imperative task verb of eight
languages and an object of this turn. An independent author asks for this turn's work in every
language, and each language marks the request in its own way; one row a language here:
- aspect: a perfective imperative of Czech, Slovak, Ukrainian, Polish and Russian ("Napiš",
  "Spusť", "Надішли", "Wystaw", "Перезапусти") asks for one act; a standing rule takes the
  imperfective ("Piš mi česky", "Posílej …") or a standing word;
- a request frame: Hebrew's future as imperative ("תכתוב לי", "תבדוק"), Vietnamese "giúp /
  giùm mình", Thai "ช่วย…" and "…ให้หน่อย", Indonesian "tolong", "-kan/-in" imperatives and
  "… dulu ya", Swahili "Ni…ie" ("write for me") and "tafadhali", Chinese "帮我" and "…一下",
  Persian and Hindi imperatives last with "for me", "a", "this" or "now", Japanese and
  Korean request endings with "this", "today" or "again", Arabic imperatives with "for me";
- `STANDING_MORE`: the standing words of those languages ("vždycky", "завжди", "תמיד",
  "همیشه", "luôn", "เสมอ", "setiap", "kila wakati"): with one, the request is a rule.
"""

from __future__ import annotations

import re

from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._text import tokens, wordset

STANDING_MORE = lazy_compile(
    r"(?<!\w)(?:vždy|vždycky|nikdy|pokaždé|odteď|zakaždým|odteraz|завжди|ніколи|щоразу|"
    r"надалі|תמיד|אף פעם|לעולם|בכל פעם|همیشه|هرگز|هیچ[\u200c ]?وقت|هر بار|luôn|luôn luôn|"
    r"lúc nào cũng|mỗi khi|mỗi lần|từ giờ|setiap|jangan pernah|kila wakati|kila mara|daima|"
    r"siku zote|kamwe)(?!\w)|เสมอ|ทุกครั้ง|ทุก|ตลอด|ต่อไปนี้",
    re.IGNORECASE,
)
_PLEASE = r"(?:בבקשה|لطفاً|لطفا|من فضلك)[\s,]*"
# Perfective imperatives (one act), first in the sentence (after "please").
PERFECTIVE = wordset("""
napiš pošli spusť zkontroluj přelož shrň oprav najdi spočítej připrav udělej vytvoř nakresli
zavolej připomeň smaž přepiš zkrať projdi otevři ulož seřaď uprav zjisti vystav objednej
zarezervuj zruš restartuj
napíš spusti skontroluj prelož zhrň nájdi spočítaj priprav urob vytvor zavolaj pripomeň zmaž
prepíš skráť prejdi otvor zoraď objednaj
напиши надішли відправ перевір переклади підсумуй виправ знайди порахуй підготуй зроби створи
намалюй зателефонуй нагадай видали перепиши скороти відкрий збережи перезапусти запусти
пришли удали открой сохрани набросай пересчитай закажи отмени забронируй отсортируй упорядочь
wystaw policz narysuj usuń zapisz otwórz uruchom zamów zarezervuj odwołaj anuluj przelicz
posortuj skróć rozwiąż przypomnij
""")
_PLEASE_WORDS = wordset("prosím prosim будь ласка proszę пожалуйста please")


def _perfective(words: tuple[str, ...]) -> bool:
    """A perfective imperative first, after any "please"."""
    rest = [w for w in words[:3] if w not in _PLEASE_WORDS]
    return bool(rest) and rest[0] in PERFECTIVE


_HE_REQUEST = lazy_compile(
    rf"^(?:{_PLEASE})?(?:תכתוב|תכתבי|תשלח|תשלחי|תבדוק|תבדקי|תסכם|תסכמי|תתרגם|תתרגמי|תמצא|תמצאי|"
    r"תחשב|תחשבי|תכין|תכיני|תעשה|תעשי|תנסח|תנסחי|תעבור|תעברי|תקבע|תקבעי|תזכיר|תזכירי|תמחק|"
    r"תמחקי|תסדר|תסדרי|תפתח|תפתחי|תשנה|תשני|כתוב|שלח|בדוק|סכם|תרגם|מצא|חשב|הכן|נסח|סדר)(?!\w)"
)
_AR_REQUEST = lazy_compile(
    rf"^(?:{_PLEASE})?(?:اكتب|أرسل|ارسل|راجع|احسب|رتب|رتّب|لخص|لخّص|ترجم|صحح|ابحث|جهز|جهّز|حضر|"
    r"حضّر|اعمل|افتح|احذف|عدّل|عدل)(?!\w).*(?:(?<!\w)لي(?!\w)|الآن|اليوم|المرفق|أدناه)"
)
_FA_REQUEST = lazy_compile(
    r"(?:^(?:لطفاً|لطفا)|(?<!\w)(?:برام|برایم|برای من|بهم|به من|این|امروز|الان|یه)(?!\w))"
    r".*(?<!\w)(?:کن|بکن|بنویس|بفرست|بده|بگیر|بساز|بخون|بخوان|بگرد)[.!\s]*$"
)
_HI_REQUEST = lazy_compile(
    r"(?<!\S)(?:एक|ज़रा|जरा|आज|अभी|इस|इसे|ये|यह|इन)(?!\S).*"
    r"(?:ो|ाओ|दो|दीजिए|दीजिये|िए|िये)[।!\s]*$"
)
_VI_REQUEST = lazy_compile(
    r"^(?:hãy\s+)?\S+(?:\s+\S+)?\s+(?:giúp|giùm|dùm|hộ)(?!\w)|^(?:giúp|giùm)\s+(?:mình|tôi|em)"
    r"(?!\w)|(?<!\w)(?:giúp|giùm|dùm|hộ)\s+(?:mình|tôi|em)\W*$|"
    r"(?<!\w)(?:này|hôm nay)(?!\w).*(?<!\w)(?:nhé|nha|đi)\W*$|"
    # a task verb first and a thing of this turn: "Viết lại đoạn … này", "Sửa lỗi … vừa dán"
    r"^(?:hãy\s+)?(?:viết|dịch|tóm tắt|sửa|tính|soạn|gửi|làm|chọn|kiểm tra|xóa|đổi|tìm)(?!\w)"
    r".*(?<!\w)(?:này|vừa|hôm nay|bây giờ|ở trên|bên dưới)(?!\w)",
    re.IGNORECASE,
)
_TH_REQUEST = lazy_compile(
    r"^ช่วย\S|(?:ให้หน่อย|ให้ที|หน่อยนะ|ทีนะ)(?:ครับ|ค่ะ|คะ|นะ)?\s*$|"
    r"^(?:แปล|สรุป|ส่ง|เขียน|แก้|คำนวณ|ตรวจ|ลบ|หา|ทำ)\S*(?:นี้|ข้างบน|ข้างล่าง|ด้านบน|ด้านล่าง|วันนี้)"
)
_ID_REQUEST = lazy_compile(
    r"^(?:tolong|coba|mohon)\s|^(?:bikinin|cariin|kirimin|bacain|beliin|ambilin|bantuin|"
    r"tulisin|gantiin|buatkan|carikan|kirimkan|tuliskan|jelaskan|terjemahkan|ringkaskan|bacakan|"
    r"siapkan|pesankan|rangkumkan|hitungkan|periksakan)\s|^(?:hitung|cek|kirim|buat|tulis|cari|baca|ubah|ganti|hapus|"
    r"simpan)\s.*\s(?:dulu ya|dong|ya)\W*$|"
    r"^(?:hitung|cek|kirim|buat|tulis|cari|baca|ubah|ganti|hapus|simpan|ringkas|terjemahkan)\s"
    r".*(?<!\w)(?:ini|tadi|di atas|di bawah|sekarang|hari ini)(?!\w)",
    re.IGNORECASE,
)
_SW_REQUEST = lazy_compile(
    r"^ni\w{3,}(?:ie|ee)\s|^(?:fupisha|andika|tuma|hesabu|tafsiri|"
    r"angalia|soma|tengeneza|andaa)\s.*(?<!\w)(?:hii|huu|hiki|hizi|leo|sasa)(?!\w)",
    re.IGNORECASE,
)
_ZH_REQUEST = lazy_compile(  # not in a "when …" clause: "帮我写邮件的时候，…" is a rule
    r"^(?!.*(?:时候|時候|的时|的時))(?:(?:帮我|幫我|麻烦|麻煩|请帮|請幫)|.*一下(?:吧|好吗)?[。！\s]*$|"
    r".*一下[^\s]{2,})"
)
_JA_REQUEST = lazy_compile(
    r"(?:この|その|これ|それ|今日|今週|今回|もう一度|もう少し|上の|下の).*"
    r"(?:して|て|てください|してください|てくれ|てみて|にして)[。！\s]*$"
)
_KO_REQUEST = lazy_compile(
    r"(?:^|\s)(?:이|그|이거|오늘|내일|지금|아래|위|다시|좀|첫|하나)(?:\s|$).*"
    r"(?:줘|주세요|줄래|줄래요|해 줘|해줘)[.!\s]*$"
)
# The first words of the Indonesian and Swahili rows (a set look-up before their patterns).
_ASCII_FIRST = wordset("""
tolong coba mohon bikinin cariin kirimin bacain beliin ambilin bantuin tulisin gantiin buatkan
carikan kirimkan tuliskan jelaskan terjemahkan ringkaskan bacakan siapkan pesankan rangkumkan
hitungkan periksakan hitung cek kirim buat tulis cari baca ubah ganti hapus simpan ringkas
fupisha andika tuma hesabu tafsiri angalia soma tengeneza andaa
""")
# Each row is searched only in a text with a letter of its script (a cheap character scan).
_SCRIPT_ROWS = (
    (lazy_compile(r"[\u0590-\u05ff]"), (_HE_REQUEST,)),
    (lazy_compile(r"[\u0600-\u06ff]"), (_AR_REQUEST, _FA_REQUEST)),
    (lazy_compile(r"[\u0900-\u097f]"), (_HI_REQUEST,)),
    (lazy_compile(r"[\u0e00-\u0e7f]"), (_TH_REQUEST,)),
    (lazy_compile(r"[\u3040-\u30ff]"), (_JA_REQUEST,)),
    (lazy_compile(r"[\uac00-\ud7af]"), (_KO_REQUEST,)),
    (lazy_compile(r"[\u4e00-\u9fff]"), (_ZH_REQUEST,)),
    (lazy_compile(r"[ăđơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]"), (_VI_REQUEST,)),
)


def table_request(text: str) -> bool:
    """A request for this turn by one of the rows above, with no standing word of their
    languages (the caller has already ruled out the other standing words)."""
    words = tokens(text)
    if not words:
        return False
    if text.isascii():
        first = words[0] in _ASCII_FIRST or words[0].startswith("ni")
        asks = _perfective(words) or "tafadhali" in words or (first and bool(
            _ID_REQUEST.match(text) or _SW_REQUEST.match(text)))
    else:
        asks = _perfective(words) or any(
            row.search(text) for script, rows in _SCRIPT_ROWS if script.search(text)
            for row in rows)
    return asks and not STANDING_MORE.search(text)
