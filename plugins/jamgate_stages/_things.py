"""The kind of thing a text names, from a table of makes and models (D-354).

A change often names the new thing and not the old one, in words the old fact does not share:
"My phone is a Pixel 7" → "I have an iPhone now", "Мой редактор — Sublime Text" → "Сейчас
пишу код в JetBrains Rider". Makes and models are the same words in every language (or a
handful of transliterations), so a closed table of them says which slot a text speaks of:
a phone, a code editor, an operating system, a car; and a bank by its word (D-357).
`thing_kinds` reads it; the change stage retires the person's live fact naming a thing of
the same kind when a declared change names one and nothing more similar was found.

A maker of many things ("Samsung", "Xiaomi", "Huawei") is a phone only beside a phone word;
a text that names another device or vehicle ("a Samsung TV", "a Honda motorbike") is none of
these kinds.
"""

from __future__ import annotations

from jamgate_stages._lazy_re import lazy_compile

# Edges against Latin letters and digits only: a make fused to CJK ("是OPPO") is still one.
_EDGE_L = r"(?<![a-z0-9_-])"
_EDGE_R = r"(?![a-z0-9_-])"
_PHONE = lazy_compile(
    _EDGE_L + r"(?:iphone|айфон\w*|آيفون|آیفون|איי?פון|आईफ़ोन|आईफोन|アイフォン|아이폰|"
    r"galaxy|галакси|гэлакси|جالكسي|گلکسی|גלקסי|गैलेक्सी|갤럭시|pixel|пиксель|픽셀|"
    r"redmi|oneplus|वनप्लस|oppo|tecno|infinix|nokia|нокиа|motorola|poco|android\w*|андроид\w*|"
    r"أندرويد|اندرويد|اندروید|אנדרואיד|एंड्रॉइड)" + _EDGE_R
    + r"|小米手机|华为手机|苹果手机|安卓|アンドロイド|안드로이드")
_PHONE_MAKER = lazy_compile(
    _EDGE_L + r"(?:samsung|самсунг\w*|سامسونج|سامسونگ|סמסונג|सैमसंग|xiaomi|сяоми|шаоми|شیائومی|"
    r"شاومي|huawei|хуавей|هواوي|هوآوی)" + _EDGE_R + r"|三星|小米|华为|華為|삼성|샤오미|화웨이")
_PHONE_WORD = lazy_compile(
    _EDGE_L + r"(?:phones?|smartphone|handy|telefon\w*|телефон\w*|смартфон\w*|هاتف\w*|جوال\w*|"
    r"موبايل|טלפון|सेलफ़ोन|फ़ोन|फोन|mobile|hp|ponsel|simu|điện thoại|گوشی\w*|mobil)" + _EDGE_R
    + r"|手机|手機|携帯|スマホ|폰|휴대폰|핸드폰|ফোন")
_EDITOR = lazy_compile(
    _EDGE_L + r"(?:vs ?code|visual studio code|vim|neovim|nvim|emacs|sublime(?: text)?|jetbrains|"
    r"intellij|pycharm|webstorm|goland|clion|notepad\+\+|textmate|geany|"
    r"xcode|android studio)" + _EDGE_R)
_OS = lazy_compile(
    _EDGE_L + r"(?:(?<!the )windows|виндовс|ويندوز|ویندوز|וינדוס|विंडोज़|विंडोज|linux|линукс|"
    r"لينكس|لینوکس|לינוקס|लिनक्स|ubuntu|убунту|debian|fedora|arch linux|manjaro|linux mint|"
    r"macos|mac os|os x|chromeos|chrome os)" + _EDGE_R + r"|ウィンドウズ|リナックス|윈도우|리눅스")
_CAR = lazy_compile(
    _EDGE_L + r"(?:toyota|тойот\w*|تويوتا|تویوتا|טויוטה|टोयोटा|honda|ford|bmw|audi|mercedes|"
    r"volkswagen|vw|skoda|škoda\w*|шкод\w*|kia|кия|hyundai|хендай|tesla|тесл\w*|تسلا|טסלה|"
    r"volvo\w*|вольво|fiat|renault|peugeot|پژو|nissan|mazda|subaru|lada|лад[аеуы]|byd|polestar|"
    r"opel|citro[eë]n|suzuki|mitsubishi|chevrolet|lexus|daewoo|टाटा|maruti|मारुति|"
    r"mahindra|پراید|dacia|togg)" + _EDGE_R
    + r"|丰田|豐田|本田|特斯拉|比亚迪|比亞迪|大众|宝马|トヨタ|ホンダ|日産|マツダ|스바루|테슬라|"
    r"현대차|기아|아반떼|쏘나타")
# Another device or vehicle named beside a make: "a Samsung TV", "my Honda motorbike".
_OTHER_THING = lazy_compile(
    _EDGE_L + r"(?:tv|television|tablet|ipad|watch|laptop|notebook|macbook|fridge|washing|"
    r"monitor|headphones|earbuds|motorbike|motorcycle|scooter|bike|bicycle|motor|xe máy|"
    r"pikipiki|телевизор\w*|планшет\w*|часы|ноутбук\w*|мотоцикл\w*|велосипед\w*|скутер\w*|"
    r"تلفاز|تلفزيون|ساعة|دراجة|لابتوب|تبلت|لپ‌تاپ|موتور|טלוויזיה|טאבלט|שעון|אופנוע|אופניים|"
    r"टीवी|टैबलेट|लैपटॉप|बाइक)" + _EDGE_R
    + r"|电视|平板|手表|笔记本|摩托|自行车|テレビ|タブレット|ノート|バイク|自転車|티비|태블릿|"
    r"노트북|오토바이|자전거")
# A bank, or an account at one (D-357): the person banks with one at a time, mostly; a text
# about working at a bank is the employer, not this ("I work at a bank now").
_BANK = lazy_compile(r"bank|banka|benki|банк|بنك|مصرف|بانک|בנק|बैंक|ngân hàng|银行|銀行|은행")
_ACCOUNT = lazy_compile(
    r"(?<![\w-])(?:account|konto|akaunti|rekening|tài khoản|счёт|счет|рахун\w*|hesab\w*|"
    r"hesap\w*|חשבון|حساب|حسابي|खाता|账户|帳戶|口座|계좌)(?![\w-])")
# An account of a platform, not a bank ("my Instagram account").
_PLATFORM = lazy_compile(
    r"instagram|facebook|twitter|tiktok|linkedin|github|gitlab|gmail|google|e-?mail|netflix|"
    r"spotify|steam|discord|slack|telegram|whatsapp|reddit|youtube|icloud|outlook|microsoft|"
    r"apple id|инстаграм|фейсбук|телеграм|ютуб|فيسبوك|انستغرام|تلگرام|اینستاگرام|微信|微博|"
    r"インスタ|카카오톡|인스타")
_WORK = lazy_compile(
    r"(?<![\w-])(?:work\w*|job|employed|jobbar|arbetar|prac\w+|работа\w*|працю\w*|çalış\w*|"
    r"أعمل|اعمل|يعمل|تعمل|עובד\w*|काम|नौकरी|kerja|bekerja|kazi|làm|کار)(?![\w-])|工作|上班|働い|勤め|"
    r"일하|근무")
# Closing an account ends the fact it held, though no change word says so.
_CLOSED = lazy_compile(
    r"(?<![\w-])(?:closed|zamknąłem|zamknęłam|kapattım|nimefunga|закрыл|закрыла|закрив|закрила|"
    r"أغلقت|סגרתי|بستم|stängde|menutup|đã đóng)(?![\w-])|关闭了|解約|해지했")
_KINDS = (("editor", _EDITOR), ("os", _OS), ("car", _CAR))


def thing_kinds(text: str, phone_context: bool = False) -> frozenset[str]:
    """The kinds of thing the text names (`phone`, `editor`, `os`, `car`); none where it
    names another device or vehicle. A maker of many things counts as a phone beside a phone
    word, or where `phone_context` says the other side of the comparison is a phone."""
    lowered = text.lower()
    if _OTHER_THING.search(lowered):
        return frozenset()
    found = {kind for kind, pattern in _KINDS if pattern.search(lowered)}
    if (_BANK.search(lowered) or (_ACCOUNT.search(lowered) and not _PLATFORM.search(lowered))) \
            and not _WORK.search(lowered):
        found.add("bank")
    if _PHONE.search(lowered) or (_PHONE_MAKER.search(lowered) and (
            phone_context or _PHONE_WORD.search(lowered))):
        found.add("phone")
    return frozenset(found)


def closes_account(text: str) -> bool:
    """Whether the text closes an account ("I closed my Chase account", "Garanti hesabımı
    kapattım"): the bank it named is no longer the person's (D-357)."""
    lowered = text.lower()
    return bool(_CLOSED.search(lowered)) and "bank" in thing_kinds(text)
