"""An empty slot: what a template puts where a secret would go, in any language and notation.

A value is a slot, not a secret, when, with its wrapper taken off (angle brackets of every kind
`<…> ‹…› «…» 〈…〉 ＜…＞ 《…》 【…】`, braces `{…}` `{{ … }}`, brackets, `${…}`, `$NAME`,
`%NAME%`, `%(name)s`, `:name`, quotes), what is left only *names* the slot: one or more words of
`SLOT_WORDS` (password, user, key… in many languages), possessives and "here" (`FILLERS`),
joined by `_`, `-`, `.` or spaces ("mot_de_passe", "ваш_пароль", "senha_aqui") or, inside a
wrapper, glued ("＜APIキー＞"). At least one slot word is needed: "admin" or "hier" alone fills
nothing; a bare glued value is a slot only when it is one table word ("contraseña", not
"secretkey" or "meinpasswort", which people do use as passwords).
"""

from __future__ import annotations

from functools import lru_cache

from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._text import wordset

# Words that name a secret's or an account's slot. Multi-word names are written glued
# ("motdepasse", "كلمةالمرور"): separators are removed before the lookup.
SLOT_WORDS = wordset("""
    password passwords passwort kennwort passwd pwd pass passphrase passcode pw pin pincode
    secret secrets token tokens key keys apikey api credential credentials creds cred
    user username usr login account acct
    contraseña contrasena clave senha motdepasse mdp parola parolă wachtwoord hasło haslo heslo
    jelszó jelszo lösenord losenord adgangskode passord salasana geslo lozinka şifre sifre
    parool slaptažodis parole katasandi sandi katalaluan matkhau mậtkhẩu
    пароль парол лозинка гасло κωδικός κωδικος συνθηματικό συνθηματικο
    كلمةالمرور كلمةالسر رمزعبور گذرواژه סיסמה סיסמא पासवर्ड पासवर्ड รหัสผ่าน
    密码 密碼 口令 パスワード 비밀번호 암호
    geheimnis schlüssel schluessel clé cle llave chave chiave sleutel klucz klíč anahtar
    секрет ключ токен κλειδί كلمة مفتاح 密钥 密鑰 令牌 キー トークン 키 토큰
    usuario usuário utilisateur identifiant benutzer benutzername nutzer gebruiker
    gebruikersnaam użytkownik uzytkownik uživatel kullanıcı kullanici kullanıcıadı
    utente nomeutente utilizador felhasználó användare bruker käyttäjä pengguna
    пользователь логин користувач χρήστης المستخدم مستخدم משתמש उपयोगकर्ता ผู้ใช้
    用户 用户名 用戶 使用者 账号 帐号 賬號 帳號 账户 ユーザー ユーザ ユーザー名 ユーザ名 アカウント
    사용자 아이디 계정 konto compte cuenta conta
""")
# Words that may stand beside a slot word without filling the slot: possessives, "here",
# "new", "the", "of" — in the same languages.
FILLERS = wordset("""
    your yours my the a of for here new value actual real
    dein deine deinen ihr ihre mein meine hier neues neue
    tu tus su sus mi aquí aqui nueva nuevo el la de del
    votre ton ta mon ma ici nouveau le du
    seu sua teu tua meu minha novo nova
    il tuo tua suo qui nuovo
    je jouw uw hier nieuw
    twoje twój twoj tutaj nowe
    senin sizin buraya burada yeni
    anda kamu di sini baru
    ваш ваша твой твоя мой моя здесь новый
    σας σου μου εδώ νέος
    你的 您的 我的 在此 新
    あなたの ここに 新しい
    당신의 여기 새
""")
_OPENERS = "<‹«〈＜《【「『[{(“„\"'`$%:@"
_CLOSERS = ">›»〉＞》】」』]})”\"'`%"
_PRINTF = lazy_compile(r"%\((?P<name>[^)]{1,60})\)[sdr]|%[sdr]|\?")
_SEPARATORS = lazy_compile(r"[\s_.\-·・]+")
_MAX_SLOT = 60


def _unwrap(value: str) -> str:
    """The value without its wrapper: brackets, braces, `$`, `%`, `:` and quotes, however
    many and whether or not they are balanced (a trailing `}` is often cut off as punctuation)."""
    printf = _PRINTF.fullmatch(value)
    if printf:
        return printf.group("name") or ""
    core = value.lstrip(_OPENERS).rstrip(_CLOSERS)
    return core.strip()


@lru_cache(maxsize=1024)
def _names_slot(core: str) -> bool:
    """Whether `core`, separators removed, splits into slot words and fillers, one slot word
    at least."""
    glued = _SEPARATORS.sub("", core.lower())
    if not glued:
        return False
    # best[i]: None if glued[:i] cannot be split, else whether a slot word was used.
    best: list[bool | None] = [None] * (len(glued) + 1)
    best[0] = False
    for end in range(1, len(glued) + 1):
        for start in range(max(0, end - 16), end):
            done = best[start]
            if done is None:
                continue
            piece = glued[start:end]
            if piece in SLOT_WORDS:
                best[end] = True
                break
            if piece in FILLERS:
                best[end] = bool(best[end]) or done
    return bool(best[-1])


def empty_slot(value: str) -> bool:
    """A template's empty slot: `‹口令>`, `«passwort»`, `%(password)s`, `%s`, `:password`,
    `mot_de_passe`, `ваш_пароль`, `＜APIキー＞`, `{password` (its brace cut off)."""
    if not value or len(value) > _MAX_SLOT:
        return False
    printf = _PRINTF.fullmatch(value)
    if printf and not printf.group("name"):
        return True  # `%s`, `?`: a driver's parameter
    core = _unwrap(value)
    if not core:
        return False
    if core == value and not _SEPARATORS.search(core):
        return core.lower() in SLOT_WORDS  # bare and glued: "keypass", "secretkey" may be real
    return _names_slot(core)
