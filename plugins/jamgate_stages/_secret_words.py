"""Credential wording in many languages, for the credentials stage's phrase rules.

`WORD_RULES` maps each way of naming a secret to how its value is judged:
- `password`: a password, passphrase or passcode (the value may follow without a separator:
  "password sakura2580!", "şifresi 5887", "पासवर्ड Priya@Delhi88");
- `pw`: the bare abbreviation, only with a separator ("pw: …", "pw is …");
- `code`: a word that also means "code" or "key" (κωδικός, clave, parola): only a value with
  a lower-case letter or a symbol counts, so "Ο κωδικός ISRC είναι GR-A12-24-00017" passes;
- `pin`: a PIN, a lock, safe or door code: 4–8 digits;
- `token`: an API key, access key, secret key, client secret…: a token-like value;
- `weak`: "token", "secret", "credentials": only after ":" or "=" with a mixed value;
- `answer`: the answer to a security question ("secret answer … is Kowalczyk"): after ":" any
  value, after a copula a capitalised one or one with a digit.
Latin, Cyrillic and Greek words match whole words; CJK, Thai, Arabic and Hebrew words match
anywhere (they are written without spaces or with glued prefixes).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._text import wordset

_S = r"[\s_-]?"

# (kind, regex, bounded, anchors). Bounded words must not be glued to a letter, digit or `_`,
# and their anchors are the lowercase starts of a match's first word: the regex is only tried
# where a word starts so. Unbounded words (CJK, Thai, Arabic, Hebrew…) are searched for in a
# text that holds one of their anchors (lowercase substrings every match holds).
_WORD_TABLE: tuple[tuple[str, str, bool, tuple[str, ...]], ...] = (
    ("token", "|".join((
        rf"api{_S}(?:keys?|tokens?|secrets?)", rf"secret{_S}(?:access{_S})?keys?",
        rf"access{_S}(?:tokens?|keys?)", rf"auth(?:entication)?{_S}tokens?",
        rf"(?:refresh|session|bearer|bot|deploy|personal{_S}access){_S}tokens?",
        rf"client{_S}secrets?", rf"private{_S}keys?", rf"(?:signing|encryption|master){_S}keys?",
        rf"webhook{_S}secrets?", rf"deploy{_S}keys?", rf"(?:recovery|backup){_S}(?:keys?|codes?)",
        rf"(?:scratch|emergency|rescue){_S}codes?", rf"app(?:lication)?{_S}secrets?",
        r"api-?schlüssel\w*", r"(?:zugangs|geheim)schlüssel\w*", r"clés?\s+(?:d'|de\s+l'|d’)?api",
        r"clés?\s+secrètes?", r"clés?\s+d'accès", r"jetons?\s+d'accès",
        r"claves?\s+(?:de\s+(?:la\s+)?)?api", r"claves?\s+secretas?", r"claves?\s+de\s+acceso",
        r"chaves?\s+(?:de\s+|da\s+)?api", r"chaves?\s+secretas?", r"chaves?\s+de\s+acesso",
        r"chiavi?\s+(?:dell'|dell’)?api", r"chiavi?\s+segret[ae]", r"chiavi?\s+di\s+accesso",
        r"api-?sleutels?", r"geheime\s+sleutels?", r"klucz\w*\s+api", r"api-?klucz\w*",
        r"klucz\w*\s+dostępu", r"api-?ключ\w*", r"ключ\w*\s+(?:api|доступа)",
        r"секретн\w*\s+ключ\w*", r"κλειδί\s+api", r"api\s+anahtar\w*", r"gizli\s+anahtar\w*",
        r"erişim\s+anahtar\w*", r"api-?nyckel\w*", r"api-?avain\w*", r"khóa\s+api",
        r"kunci\s+api", r"api\s+kulcs\w*",
    )), True, ("api", "secret", "access", "auth", "refresh", "session", "bearer", "bot",
               "deploy", "personal", "client", "private", "signing", "encryption", "master",
               "webhook", "zugangs", "geheim", "clé", "jeton", "clave", "chave", "chiav", "klucz",
               "recovery", "backup", "scratch", "emergency", "rescue", "app",
               "ключ", "секретн", "κλειδί", "gizli", "erişim", "khóa", "kunci")),
    ("token", r"API\s?密钥|API\s?密鑰|密钥|密鑰|秘钥|访问令牌|APIキー|アクセスキー|"
              r"シークレットキー|アクセストークン|API\s?키|액세스\s?키|시크릿\s?키|액세스\s?토큰|"
              r"مفتاح\s?(?:ال)?(?:api|API)|מפתח\s?(?:ה-?)?API|एपीआई\s?कुंजी", False,
     ("密钥", "密鑰", "秘钥", "令牌", "キー", "トークン", "키", "토큰", "مفتاح", "מפתח", "कुंजी")),
    ("pin", "|".join((
        r"pin(?:[\s-]?(?:code|kod|kodu|number|nummer|numéro|número|numero))?", r"pincode",
        r"puk(?:[\s-]?(?:code|kod|kodu|koodi|number|nummer))?", r"entsperr(?:code|pin|muster)\w*",
        r"(?:lock\s?box|key\s?(?:safe|box)|buzzer|intercom)\s?(?:codes?|combination|pin)",
        r"(?:port|dörr|dør|larm|alarm)kod(?:en|e|er|erne|ens)?",
        r"(?:ovi|hälytys|portti)koodi\w*", r"kassakaapin\s+koodi\w*",
        r"kód\w*\s+(?:k|ke|od|do|ku)\s+(?:trezoru|dveřím|dveří|dverám|alarmu|zámku|sejfu|vchodu|"
        r"brány|bráně)", r"код\w*\s+(?:разблокировки|розблокування)",
        r"код\w*\s+від\s+(?:сейфа|дверей|під['’]їзду|домофона|сигналізації)",
        r"mã\s+(?:két(?:\s+sắt)?|cửa|mở\s+khóa)", r"kod[ea]?\s+(?:brankas|pintu|alarm|gembok)",
        r"kod\s+odblokowania",
        r"code\s+(?:de\s+|d['’]\s*)(?:déverrouillage|entrée|accès|l['’]interphone|interphone)",
        r"código\s+de\s+(?:desbloqueo|desbloqueio|acceso|acesso|entrada)",
        r"codice\s+(?:di\s+sblocco|d['’]accesso|del\s+(?:portone|citofono))",
        r"geheimzahl", r"пин(?:-?код\w*)?", r"пін(?:-?код\w*)?",
        r"код\w*\s+от\s+(?:сейфа|двери|сигнализации|домофона|"
        r"замка|калитки|подъезда|квартиры|ворот)", r"namba\s+ya\s+siri", r"mã\s+pin",
        rf"(?:safe|alarm|door|gate|garage|locker|padlock|keypad|lock|entry|unlock|screen|bike"
        rf"|luggage)(?:[\s_-]+(?:system|opener|keypad|lock|pad|panel)){{0,2}}{_S}"
        rf"(?:codes?|combinations?|combo|pin)",
        r"codes?\s+(?:for|to|of|on)\s+(?:the\s+|my\s+|our\s+|his\s+|her\s+)?(?:front\s+|back\s+)?"
        r"(?:safe|alarm|door|gate|garage|locker|padlock|keypad|lock|building|house)",
        r"(?:safe|lock|padlock)\s+combination", r"combination\s+(?:for|to|of|on)\s+(?:the\s+|my\s+|"
        r"our\s+)?(?:\w+\s+)?(?:safe|lock|padlock|locker|suitcase)",
        r"(?:tresor|safe|tür|alarm|schloss|garagen|haus)[\s-]?(?:code|kombination)",
        r"code\s+(?:für|vom|zum)\s+(?:den\s+|das\s+|die\s+)?(?:tresor|safe|tür|alarm\w*|schloss)",
        r"code\s+(?:du|de\s+la|de\s+l'|d')\s*(?:coffre(?:-fort)?|porte|alarme|cadenas|portail|"
        r"immeuble|garage)", r"digicode", r"codes?\s+secrets?",
        r"código\s+(?:de\s+(?:la\s+)?|del\s+|do\s+|da\s+)(?:caja\s+fuerte|puerta|alarma|candado|"
        r"portal|garaje|cofre|porta|alarme|cadeado|portão|garagem)", r"código\s+secreto",
        r"codice\s+(?:della|del|dell')\s*(?:cassaforte|porta|allarme|lucchetto|cancello|garage)",
        r"codice\s+segreto", r"(?:kluis|deur|alarm|slot|garage)code",
        r"code\s+van\s+de\s+(?:kluis|deur|alarm)", r"kod\s+(?:do|od)\s+(?:sejfu|drzwi|alarmu|"
        r"kłódki|domofonu|bramy)", r"(?:kasa|kapı|alarm)\s+(?:şifresi|kodu)",
    )), True, ("pin", "geheimzahl", "пин", "пін", "код", "namba", "mã", "safe", "alarm", "door",
               "gate", "garage", "locker", "padlock", "keypad", "lock", "entry", "unlock",
               "screen", "bike", "luggage", "code", "combination", "tresor", "tür", "schloss",
               "haus", "digicode", "código", "codice", "kluis", "deur", "slot", "kod", "kasa",
               "kapı", "puk", "entsperr", "key", "buzzer", "intercom", "port", "dör", "dør",
               "larm", "ovi", "hälytys", "portti", "kassakaapin", "kód")),
    ("pin", r"(?<![A-Za-z0-9])(?-i:PIN)s?(?![A-Za-z0-9])|ПИН|暗証番号|PIN码|PIN碼|पिन|"
            r"رقم\s?(?:ال)?سري|الرقم\s?السري|رمز\s?(?:ال)?(?:خزنة|باب|إنذار)|קוד\s?סודי|"
            r"קוד\s?(?:ל|של\s?)?ה?(?:כספת|אזעקה|דלת|שער)|金庫の(?:番号|暗証番号)|保险箱密码|门禁密码|"
            r"รหัส\s?(?:ATM|atm|เอทีเอ็ม|บัตร(?:เอทีเอ็ม|ATM)?|ตู้เซฟ|เซฟ|ประตู|ปลดล็อก)|"
            r"(?:ロック)?解除(?:コード|番号)|オートロック(?:の)?番号|"
            r"(?:도어락|현관|금고)\s?(?:번호|비번)",
     False, ("pin", "пин", "暗証番号", "पिन", "رقم", "رمز", "קוד", "金庫", "保险箱", "门禁", "รหัส",
             "解除", "オートロック", "도어락", "현관", "금고")),
    ("password", "|".join((
        r"pass[\s-]?words?", r"passwd", r"pwd", r"pass[\s-]?phrases?", r"pass[\s-]?codes?",
        r"passw[öo]rt(?:e|er|es)?", r"passwörter", r"kennw[öo]rt(?:e|er|es)?", r"zugangscode",
        r"mots?[\s-]de[\s-]passe", r"mdp", r"contraseñas?", r"contrasena", r"senhas?",
        r"palavras?[\s-]passe", r"parol[ae]\s+d'ordine", r"wachtwoord(?:en)?",
        r"hasł(?:o|a|em|u|ami|ach)?", r"haseł", r"haśle", r"парол\w*", r"лозинк\w*", r"lozink\w*",
        r"συνθηματικ\w*", r"şifre(?!le)\w*", r"sifre(?!le)\w*", r"hesl\w*", r"jelsz[oó]\w*",
        r"jelszav\w*", r"lösenord\w*", r"passord\w*", r"adgangskode\w*", r"kodeord\w*",
        r"salasan\w*", r"gesl[oa]\w*", r"slaptažod\w*", r"parool\w*", r"lykilorð\w*",
        r"parola(?:s[ıi]|m|n|m[ıi]z|n[ıi]z|lar\w*)", r"mật\s+khẩu", r"kata\s+sandi",
        r"kata\s+laluan", r"sandi", r"nenosiri",
        r"neno\s+la\s+siri",
        rf"(?:wi-?fi|wlan){_S}(?:keys?|schlüssel|clé|clave|chiave|sleutel|klucz|ключ|kodu)",
        r"clé\s+(?:wi-?fi|wpa2?)", r"wpa2?[\s-]?(?:keys?|psk|passphrase)",
    )), True, ("pass", "pwd", "kennw", "zugangscode", "mot", "mdp", "contrase", "senha",
               "palavra", "parol", "wachtwoord", "has", "парол", "лозинк", "lozink", "συνθηματικ",
               "şifre", "sifre", "hesl", "jelsz", "lösenord", "adgangskode", "kodeord", "salasan",
               "gesl", "slaptažod", "parool", "lykilorð", "mật", "kata", "sandi", "nenosiri",
               "neno", "wi", "wlan", "clé", "wpa")),
    ("password", r"密码|密碼|口令|パスワード|パスコード|合言葉|비밀번호|비번|패스워드|암호(?!화)|"
                 r"كلم[ةه]\s?(?:ال)?(?:مرور|سر)|رمز\s?(?:ال)?مرور|סיסמ[הא]\w*|סיסמאות|"
                 r"رمز\s?عبور|گذرواژه|کلمه\s?(?:ی\s?)?عبور|पासवर्ड|পাসওয়ার্ড|پاس\s?ورڈ|"
                 r"รหัสผ่าน", False,
     ("密码", "密碼", "口令", "パスワード", "パスコード", "合言葉", "비밀번호", "비번", "패스워드",
      "암호", "كلم", "رمز", "סיסמ", "گذرواژه", "کلمه", "पासवर्ड", "পাসওয়ার্ড", "پاس", "รหัสผ่าน")),
    ("answer", "|".join((
        r"security\s+(?:question\s+)?answers?", r"secret\s+answers?",
        r"memorable\s+(?:word|answer)",
        r"answers?\s+(?:to|for)\s+(?:my\s+|the\s+)?(?:\w+\s+){0,3}security\s+questions?",
        r"sicherheitsantwort\w*", r"antwort\s+auf\s+(?:die|meine)\s+sicherheitsfrage",
        r"respuesta\s+(?:de\s+seguridad|secreta)", r"resposta\s+(?:de\s+segurança|secreta)",
        r"réponse\s+(?:secrète|à\s+(?:la|ma)\s+question\s+secrète)",
        r"risposta\s+(?:segreta|di\s+sicurezza)",
        r"antwoord\s+op\s+(?:de|mijn)\s+beveiligingsvraag",
        r"odpowiedź\s+na\s+pytanie\s+(?:zabezpieczające|bezpieczeństwa)",
        r"ответ\s+на\s+(?:секретный|контрольный)\s+вопрос",
        r"güvenlik\s+sorusu(?:nun)?\s+cevab\w*",
    )), True, ("security", "secret", "memorable", "answer", "sicherheitsantwort", "antwort",
               "respuesta", "resposta", "réponse", "risposta", "antwoord", "odpowied", "ответ",
               "güvenlik")),
    ("answer", r"秘密の質問の答え|密保(?:问题)?答案|安全问题(?:的)?答案|보안\s?질문\s?(?:의\s?)?답",
     False, ("秘密の質問", "密保", "安全问题", "보안")),
    ("code", r"κωδικ\w*|claves?|parol\w*(?!\s+chiav)", True, ("κωδικ", "clave", "parol")),
    ("pw", r"pw", True, ("pw",)),
    ("weak", r"tokens?|secrets?|jetons?|токен\w*|credentials?|creds|geheimnis\w*|secreto|"
             r"segreto|segredo|sekret|секрет\w*|μυστικ\w*|gizli", True,
     ("token", "secret", "jeton", "токен", "cred", "geheim", "segre", "sekret", "секрет",
      "μυστικ", "gizli")),
    ("weak", r"トークン|토큰|令牌|シークレット|시크릿|秘密", False,
     ("トークン", "토큰", "令牌", "シークレット", "시크릿", "秘密")),
)


@dataclass(frozen=True)
class WordRule:
    """One row of the wording table, compiled."""

    kind: str
    regex: re.Pattern[str]
    bounded: bool
    anchors: tuple[str, ...]


WORD_RULES: tuple[WordRule, ...] = tuple(
    WordRule(kind, lazy_compile(rf"(?<!\w)(?:{pattern})(?!\w)" if bounded else pattern,
                              re.IGNORECASE), bounded, anchors)
    for kind, pattern, bounded, anchors in _WORD_TABLE
)


def _by_head() -> dict[str, tuple[WordRule, ...]]:
    """The bounded rules by the first two letters of their anchors."""
    table: dict[str, tuple[WordRule, ...]] = {}
    for rule in WORD_RULES:
        for head in sorted({a[:2] for a in rule.anchors}) if rule.bounded else ():
            table[head] = (*table.get(head, ()), rule)
    return table


_BY_HEAD = _by_head()
_WORD = lazy_compile(r"\w+")


def find_words(text: str, lowered: str) -> Iterator[tuple[str, re.Match[str]]]:
    """Every credential word in `text` with its kind (`lowered` is `text.lower()`)."""
    if len(lowered) == len(text):
        for word in _WORD.finditer(lowered):
            token = word.group()
            for rule in _BY_HEAD.get(token[:2], ()):
                if token.startswith(rule.anchors):
                    match = rule.regex.match(text, word.start())
                    if match:
                        yield rule.kind, match
    else:  # case folding moved the offsets: scan the original text
        for rule in WORD_RULES:
            if rule.bounded:
                for match in rule.regex.finditer(text):
                    yield rule.kind, match
    for rule in WORD_RULES:
        if not rule.bounded and any(anchor in lowered for anchor in rule.anchors):
            for match in rule.regex.finditer(text):
                yield rule.kind, match


# Between the word and its value: ":" "=" "->" or a spaced dash (explicit), or a copula.
SEPARATOR = lazy_compile(
    r"(?P<explicit>[ \t]*(?:[:=：＝]|==>|=>|->|→)[ \t\n]*|\s+[-–—]\s+)"
    r"|(?P<copula>\s+(?:is|was|are|ist|war|lautet|est|c'est|c’est|es|era|é|è|e|sono|to|jest|"
    r"był[ao]?|это|είναι|ήταν|este|je|on|oli|är|var|er|ni|ay|là|adalah|ialah|yaitu|е|є|це|"
    r"היא|הוא|هي|هو|คือ|yra|ir|sind)\s+"
    r"|[ \t]*(?:是|为|為|は|が|も|는|은|이|가|คือ)[ \t]*)",
    re.IGNORECASE,
)

# Right after the word: it names a thing about passwords, not a password ("password manager",
# "Passwort-Manager", "password policy:", "κωδικός ISRC").
COMPOUND = lazy_compile(
    r"[\s'’s-]*(?:managers?|manag|policy|policies|length|hash\w*|reset|rotation|requirements?|"
    r"rules?|strength|expir\w*|generator|field|prompt|complexity|names?|hint|history|"
    r"protected|changes?|less|vault|safe|ids?|identifiers?|fingerprints?|urls?|endpoints?|"
    r"files?|paths?|headers?|types?|scopes?|ttl|lifetime|naming|conventions?|formats?|patterns?|prefix\w*|style|"
    r"isrc|isbn|isni|issn|iban|doi|orcid|sku|ean|upc|"
    r"postal|zip|order|booking|confirmation|tracking|reference|serial|invoice|product|promo|"
    r"discount|coupon|voucher|gestor\w*|gestionnaire|verwaltung|menedżer\w*|менеджер\w*)\b",
    re.IGNORECASE,
)
# Just before the word: "gestor de contraseñas", "menedżer haseł", "password manager".
MANAGER_BEFORE = lazy_compile(
    r"(?:manager|gestor|gestionnaire|gestore|gerenciador|administrador|menedżer\w*|менеджер\w*|"
    r"beheerder|yönetici\w*|správce|kezelő|hallinta\w*|管理|マネージャー|관리|مدير|מנהל)"
    r"\W{0,3}(?:\w+\W+){0,2}$",
    re.IGNORECASE,
)

# A PIN-ish context that lets a `code` word take digits ("Mi clave del banco es 4821").
PIN_CONTEXT = lazy_compile(
    r"pin|bank|banco|banca|karte|carte|tarjeta|cartão|carta|kart|card|karta|карт|κάρτ|"
    r"τράπεζ|cajero|atm|sim\b|phone|handy|teléfono|móvil|celular|téléphone|door|puerta|porte|"
    r"tür|porta|safe|caja|cofre|cassaforte|alarm|πόρτ|συναγερμ|χρηματοκιβ",
    re.IGNORECASE,
)

# A value that names a thing rather than being a secret.
PRODUCTS = wordset("""
1password bitwarden vaultwarden keepass keepassxc keepassdx lastpass dashlane keeper enpass
nordpass roboform protonpass passbolt psono strongbox keychain icloud authy aegis yubikey
google microsoft apple okta vault doppler infisical
""")

# Value shapes that are tech words, not secrets ("password sha256-hashed", "wpa2").
TECH_VALUE = lazy_compile(
    r"^(?:sha-?\d+|md5|bcrypt|scrypt|argon2\w*|pbkdf2\w*|wpa[23]?\b|oauth2?\b|x509|utf-?8|"
    r"base64|aes-?\d+|rsa-?\d+|ed25519|hmac\w*|2fa|mfa|totp|hotp)",
    re.IGNORECASE,
)

# Card numbers: wording or an expiry date near the digits.
CARD_CONTEXT = lazy_compile(
    r"card|credit|debit|visa|master\s?card|amex|american express|discover|jcb|unionpay|"
    r"maestro|diners|cvv|cvc|cvv2|expir|exp\b|valid|karte|carte|tarjeta|cartão|carta|kaart|"
    r"karta|карт|κάρτ|kart|kredi|prüfnummer|gültig|vence|validade|scadenza|ważna|skt|"
    r"security code|卡|カード|카드|بطاقة|כרטיס|कार्ड|thẻ|kartu|บัตร|有效期|有効期限|유효기간",
    re.IGNORECASE,
)
EXPIRY = lazy_compile(r"(?<![\d/])(?:0[1-9]|1[0-2])\s?/\s?(?:\d{2}|20\d{2})(?![\d/])")

# Backup and recovery codes.
BACKUP_CONTEXT = lazy_compile(
    r"(?:backup|recovery|rescue|emergency|scratch|one[\s-]time)[\s-]?codes?|"
    r"backup-?codes?|wiederherstellungs-?codes?|notfall-?codes?|"
    r"codes?\s+de\s+(?:secours|récupération|sauvegarde|recuperación|respaldo|recuperação|backup)|"
    r"códigos?\s+de\s+(?:recuperación|respaldo|reserva|backup|recuperação|segurança)|"
    r"codici\s+di\s+(?:backup|recupero|riserva)|kody?\s+(?:zapasowe|odzyskiwania)|"
    r"резервн\w*\s+код\w*|код\w*\s+восстановлени\w*|κωδικοί\s+ανάκτησης|εφεδρικοί\s+κωδικοί|"
    r"yedek\s+kod\w*|kurtarma\s+kod\w*|herstelcodes?|back-?upcodes?|reservkod\w*|"
    r"återställningskod\w*|varakoodi\w*|palautuskoodi\w*|záložní\s+kód\w*|"
    r"mã\s+(?:dự\s+phòng|khôi\s+phục)|kode\s+(?:cadangan|pemulihan)|"
    r"备用码|备用代码|恢复码|救援码|備用碼|復原碼|バックアップコード|リカバリーコード|予備コード|"
    r"백업\s?코드|복구\s?코드|예비\s?코드|رموز\s?(?:ال)?(?:احتياط\w*|استرداد)|קודי\s?(?:גיבוי|שחזור)|"
    r"बैकअप\s?कोड|रिकवरी\s?कोड",
    re.IGNORECASE,
)

# TOTP / 2FA seeds.
TOTP_CONTEXT = lazy_compile(
    r"2fa|mfa|totp|hotp|\botp\b|authenticator|two[\s-]factor|2-step|two-step|seed|secret|"
    r"semilla|clé\s+secrète|geheim|zwei-?faktor|segreto|segredo|sekret|секрет|σπόρος|"
    r"二要素|二段階|双重|两步|2단계|인증|seme",
    re.IGNORECASE,
)
