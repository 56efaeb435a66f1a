"""Credentials: refuse anything that looks like a secret, in any field, before any other rule.

(Longer than 500 lines by design: one ordered list of grounds, each a few lines, read best in
one place; the tables live in `_secret_shapes` and `_secret_words`.)

Grounds, first hit wins, every refusal redacted (the text is never logged):
1. vendor shapes, one maintained table (`_secret_shapes.SHAPES`): `sk-…`, `AKIA…`, `ghp_…`,
   JWTs, PEM private keys, Azure SAS signatures…;
2. URLs and connection strings with a password; passwords on command lines (`sshpass -p`,
   `mysql -p…`, `curl -u user:pass`, `--password=…`);
3. 2FA material: `otpauth://` URIs, TOTP seeds near 2FA wording, lists of backup codes;
4. Luhn-valid card numbers (issuer prefix and length checked; near card wording or an expiry
   date, or in the 4-4-4-4 layout); BIP-39 seed phrases (≥12 words of one wordlist, any
   language `mnemonic` ships: a plain list of 12 such words is refused too);
5. credential wording with a value, in many languages (`_secret_words`): "my password is …",
   "mein Passwort ist …", "密码是…", "PIN 4821", "hunter2 is my password";
6. `.env`/config assignments whose name holds a credential word with any prefix or suffix
   (`APP_DB_PASSWORD=…`, `"key": "…"`) and a real value: no placeholder, reference, or
   metadata such as `TOKEN_TTL=3600`;
7. a high-entropy token near credential wording.
Not secrets: git SHAs, UUIDs, digests, key fingerprints, ids and codes (ISNI, ORCID, DOI,
order numbers), bank account numbers and IBANs (shared to receive money), env var names
without values, placeholders, and prose about passwords ("my password manager is 1Password").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pydantic import BaseModel, Field

from jamgate_core import BaseStage, Candidate, StageContext, StageResult
from jamgate_stages import _secret_words as words
from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._secret_shapes import SHAPES, find_shape
from jamgate_stages._seed_phrase import find_seed_phrase
from jamgate_stages._text import char_classes, entropy, wordset

# (kind, label, pattern) of every vendor shape that needs no context: the corpus checks use it.
_SHAPES: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (shape.kind, shape.label, shape.regex) for shape in SHAPES if shape.context is None
)

_PLACEHOLDER = lazy_compile(
    r"(?:<[^>]*>|\[[^\]]*\]|\{\{?[^}]*\}\}?|\$\{?[A-Za-z_][\w:-]*\}?|%[A-Za-z_]\w*%|"
    r"[*•]+|(?:x+[-_.]?)+|\.+|your[-_ ]?[\w-]*?(?:key|token|secret|password|pass|pwd|here|value)"
    r"[\w-]*|"
    r"(?:insert|enter|put)[-_ ]\w+|"
    r"(?:my|the|some)[-_]\w*?(?:key|token|secret|password|pass|pwd)\w*|"
    r"change[-_]?(?:me|it|this)\w*|replace[-_]?me\w*|password|passwort|pass|secret|token|"
    r"redacted|\[redacted\]|example\w*|placeholder|dummy|todo|tbd|test|null|none|nil|"
    r"undefined|true|false|yes|no|on|off|enabled|disabled|required|optional|empty|default|"
    r"auto|unset|hidden|masked|sk-|sk_live_|sk_test_)",
    re.IGNORECASE,
)
_EMAIL = lazy_compile(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}")
_VERSION = lazy_compile(r"v?\d+(?:\.\d+)+(?:[-+][\w.]+)?")
_DATE = lazy_compile(r"\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?Z?)?")
_YEAR = lazy_compile(r"19[5-9]\d|20[0-3]\d")
_PATHLIKE = lazy_compile(r"^(?:/|~/|\./|\.\./|[A-Za-z]:\\)")
_HEX_OR_UUID = lazy_compile(
    r"^(?:[0-9a-fA-F]+|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
    r"[0-9a-fA-F]{12}|(?:sha\d*|md5)[:=-][0-9a-fA-F]+)$"
)
_FINGERPRINT = lazy_compile(r"^(?:SHA\d*|MD5|sha\d*|md5)[:=]")
# A reference to a secret, not the secret: `os.environ[...]`, `secrets.X`, `getpass()`.
_CODE_REF = lazy_compile(
    r"(?:os\.|process\.env|import\.meta|env\(|env\[|ENV\[|getenv|System\.getenv|config\.|"
    r"settings\.|secrets\.|vars\.|inputs\.|self\.|this\.|request\.|params\.|args\.|opts?\.|"
    r"options\.|[A-Za-z_][\w.]*\()"
)
_IDENTIFIER = lazy_compile(r"[A-Za-z_]+")
_REF_NAME = lazy_compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")  # an env var's name: DB_PASSWORD
_TRAIL = ".,;:!?)]}»”’'\"`"


def _placeholder(value: str) -> bool:
    """A stand-in for a secret: `<YOUR_KEY>`, `${VAR}`, `xxx`, `…`, `changeme`, `sk-...`."""
    return bool(_PLACEHOLDER.fullmatch(value) or "..." in value or "…" in value
                or value.startswith(("<", "${", "{{", "$(", "!secret", "!vault", "!env", "!Ref")))


def _named_thing(value: str) -> bool:
    """A value that is not a secret: a product, e-mail, URL, path, version, date or an
    environment variable's name."""
    return bool(value.lower() in words.PRODUCTS or _EMAIL.fullmatch(value) or "://" in value
                or _REF_NAME.fullmatch(value) or _PATHLIKE.match(value)
                or _VERSION.fullmatch(value) or _DATE.fullmatch(value)
                or value.lower().startswith("www."))


# -- 2. URLs, connection strings and command lines ----------------------------------------------

_CONNECTION = lazy_compile(
    r"\b[a-z][a-z0-9+.-]{1,20}://(?P<user>[^\s:/@]*):(?P<password>[^\s@/]{3,})@[^\s/@]+",
    re.IGNORECASE,
)
_QUERY_PASSWORD = lazy_compile(
    r"(?:jdbc:[a-z0-9]+:|://)\S*?[?&;](?:password|pwd|pass)=(?P<password>[^&;\s]{3,})",
    re.IGNORECASE,
)
_ARG = r"(?P<v>'[^'\n]*'|\"[^\"\n]*\"|[^\s'\"]+)"
# (anchor, pattern): the pattern only runs on a lowercased text holding its anchor.
_CLI: tuple[tuple[str, re.Pattern[str]], ...] = tuple((a, lazy_compile(p)) for a, p in (
    ("sshpass", rf"\bsshpass\b[^\n|;&]{{0,40}}?\s-p\s*{_ARG}"),
    ("mysql", rf"\b(?:mysql|mysqldump|mysqladmin|mysqlsh)\b[^\n|;&]{{0,120}}?\s-p{_ARG}"),
    ("mariadb", rf"\bmariadb(?:-dump)?\b[^\n|;&]{{0,120}}?\s-p{_ARG}"),
    ("curl", rf"\bcurl\b[^\n|;&]{{0,200}}?\s(?:-u|--user)[\s=]*{_ARG}"),
    ("login", rf"\b(?:docker|podman|helm|nerdctl|buildah|skopeo|oras|az)\b[^\n|;&]{{0,30}}?"
              rf"\blogin\b[^\n|;&]{{0,160}}?\s(?:-p|--password)[\s=]+{_ARG}"),
    ("mongo", rf"\bmongo(?:sh|dump|restore|import|export)?\b[^\n|;&]{{0,160}}?\s(?:-p|--password)"
              rf"[\s=]+{_ARG}"),
    ("redis-cli", rf"\bredis-cli\b[^\n|;&]{{0,80}}?\s(?:-a|--pass)\s+{_ARG}"),
    ("sqlcmd", rf"\bsqlcmd\b[^\n|;&]{{0,120}}?\s-P\s*{_ARG}"),
    ("smbclient", rf"\bsmbclient\b[^\n|;&]{{0,120}}?\s-U\s+[^\s%]+%{_ARG}"),
    ("--", rf"(?<![\w-])--(?:(?:http|ftp|db|admin|proxy|registry|client)-)?(?:password|passwd|"
           rf"pass|pwd|token|api-key|apikey|api-token|secret|auth-token|access-token)[= ]{_ARG}"),
))


def _connection_password(text: str) -> bool:
    if "://" not in text and "jdbc:" not in text.lower():
        return False
    for pattern in (_CONNECTION, _QUERY_PASSWORD):
        for match in pattern.finditer(text):
            password = match.group("password")
            if not _placeholder(password) and not password.startswith("$"):
                return True
    return False


def _cli_password(text: str, lowered: str) -> bool:
    if "-" not in text:
        return False
    for anchor, pattern in _CLI:
        if anchor not in lowered:
            continue
        for match in pattern.finditer(text):
            value = match.group("v").strip("'\"")
            if anchor == "curl":
                _user, colon, value = value.partition(":")
                if not colon:
                    continue
            if (len(value) >= 4 and not value.startswith(("$", "-")) and "=" not in value
                    and not _placeholder(value) and not _PATHLIKE.match(value)):
                return True
    return False


# -- 3. 2FA: otpauth URIs, TOTP seeds, backup codes ---------------------------------------------

_OTPAUTH = lazy_compile(r"otpauth://(?:totp|hotp)/\S*?[?&]secret=[A-Za-z2-7=%]{8,}", re.IGNORECASE)
_BASE32_GROUPED = lazy_compile(
    r"(?<![A-Za-z0-9])(?:[A-Za-z2-7]{4}[ -]){3,15}[A-Za-z2-7]{2,4}(?![A-Za-z0-9])"
)
_BASE32_RUN = lazy_compile(r"(?<![A-Za-z0-9])(?:[A-Z2-7]{16,64}|[a-z2-7]{16,64})(?![A-Za-z0-9])")
_CODE_TOKEN = lazy_compile(
    r"(?<![\w-])(?:[A-Za-z0-9]{4,5}-[A-Za-z0-9]{4,5}|\d{4}[ -]?\d{4}|\d{6,10}|[a-z0-9]{8,10})"
    r"(?![\w-])"
)


def _totp_seed(text: str) -> bool:
    for pattern in (_BASE32_GROUPED, _BASE32_RUN):
        for match in pattern.finditer(text):
            seed = match.group().replace(" ", "").replace("-", "")
            letters = [c for c in seed if c.isalpha()]
            if (len(seed) >= 16 and sum(c.isdigit() for c in seed) >= 2
                    and (all(c.isupper() for c in letters) or all(c.islower() for c in letters))
                    and words.TOTP_CONTEXT.search(text)):
                return True
    return False


def _code_like(token: str) -> bool:
    """A backup code: it holds a digit, or it is two groups of letters ("xmeb-yaqx")."""
    return any(c.isdigit() for c in token) or "-" in token


def _backup_codes(text: str) -> bool:
    codes = [c for c in _CODE_TOKEN.findall(text) if _code_like(c)]
    if len(set(codes)) < 4:
        return False
    context = words.BACKUP_CONTEXT.search(text)
    if context is None:
        return False
    after = {c for c in _CODE_TOKEN.findall(text, context.end()) if _code_like(c)}
    return len(after) >= 4


# -- 4. cards and seed phrases ------------------------------------------------------------------

_CARD = lazy_compile(
    r"(?<![\d-])(?:\d{4}(?P<s>[ -])\d{4}(?P=s)\d{4}(?P=s)\d{1,7}(?:(?P=s)\d{1,4})?|"
    r"\d{4}[ -]\d{6}[ -]\d{4,5}|\d{13,19})(?![\d-])"
)
_FOUR_DIGITS = lazy_compile(r"\d{4}")
_CARD_LAYOUT = lazy_compile(r"\d{4}([ -])\d{4}\1\d{4}\1\d{4}")


def _luhn(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _card_issuer(digits: str) -> bool:
    """A known card network's prefix with a length that network issues."""
    n, two, four = len(digits), int(digits[:2]), int(digits[:4])
    if digits[0] == "4":
        return n in (13, 16, 19)
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return n == 16
    if two in (34, 37):
        return n == 15
    if 2200 <= four <= 2204 or 3528 <= four <= 3589:
        return n >= 16
    if two in (36, 38, 39) or 300 <= int(digits[:3]) <= 305:
        return n >= 14
    if digits[0] == "6" or two == 50 or 56 <= two <= 58:
        return n >= 16 or (n >= 12 and two != 62)
    return (two in (81, 82) or four == 9792) and n == 16


def _card_number(text: str) -> bool:
    if not _FOUR_DIGITS.search(text):
        return False
    for match in _CARD.finditer(text):
        number = match.group()
        digits = number.replace(" ", "").replace("-", "")
        if not (13 <= len(digits) <= 19 and _card_issuer(digits) and _luhn(digits)):
            continue
        if _CARD_LAYOUT.fullmatch(number):
            return True
        near = text[max(0, match.start() - 80): match.end() + 80]
        if words.CARD_CONTEXT.search(near) or words.EXPIRY.search(near):
            return True
    return False


# -- 5. credential wording with a value ---------------------------------------------------------

_VALUE = lazy_compile(
    r"[ \t]*\n?[ \t]*(?:(?P<q>[\"'`«“„‘「『])(?P<quoted>[^\"'`»”“‘’」』\n]{1,100})"
    r"[\"'`»”“‘’」』]|(?P<bare>[^\s\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
    r"\uff00-\uffef]+))"
)
_DIRECT = lazy_compile(r"[ \t]+")
_CLAUSE_END = lazy_compile(r"[.!?。！？](?=\s|$)|\n")
_LOCK_CODE = lazy_compile(r"\d{1,3}(?:-\d{1,3}){2,3}|(?=(?:\D*\d){3})[0-9A-F]{4,8}#?")
_PIN_DIGITS = lazy_compile(r"(?<![\w.,/:+-])\d{4,8}#?(?![0-9A-Za-z/-]|[.,:]\d)")
_REVERSED = lazy_compile(
    r"(?:^|\s)(?P<quote>[\"'`]?)(?P<value>\S{6,}?)[\"'`]?\s+(?:is|was|ist|est|es|é|è)\s+"
    r"(?:(?:my|our|his|her|their|the|jam's|[a-z]+'s|mein|meine|das|mon|le|mi|la|il\s+mio|"
    r"a\s+minha|minha)\s+)?(?:[a-z]+\s+){0,2}?"
    r"(?:password|passphrase|passcode|pwd|pin|passwort|kennwort|mot de passe|contraseña|senha)"
    r"(?=\s*(?:$|[.,;!)]|\s+(?:for|to|of|on|für|pour|para|de|do|da)\b))",
    re.IGNORECASE,
)
_WINDOW = 110
# "login: jam@example.org / Summer2024!", "user/pass: admin/Hunter22": a user and a password.
_CREDENTIAL_PAIR = lazy_compile(
    r"(?<!\w)(?:(?:user(?:name)?|login|account)\s*/\s*(?:pass(?:word)?|pwd|pw)|logins?|"
    r"credentials?|creds|sign[\s-]?in|wi-?fi|wlan|ssid)(?:\s+(?:for|to|on|at)\s+[^\n:=]{1,30}?)?\s*[:=]\s*"
    r"(?P<user>[^\s/|]+)\s*[/|]\s*(?P<pw>[^\s,;|]+)",
    re.IGNORECASE,
)
_PAIR_ANCHORS = ("login", "cred", "user", "account", "sign", "wi", "wlan", "ssid")
_WEAK_MID = 24  # "token for staging: …", not a colon three clauses on
# Copulas that are also common short words ("to", "on", "e"): never introduce a quoted phrase.
_WEAK_COPULAS = wordset("to e on er ir ni ay je yra var")
_MORE_WORDS = lazy_compile(r"[ \t]+[^\W\d_]{2,}")  # a word value followed by more words: prose


def _value_at(text: str, pos: int) -> tuple[str, bool, int] | None:
    """The value starting at `pos` (after blanks): its text, whether quoted, where it ends."""
    match = _VALUE.match(text, pos)
    if match is None:
        return None
    if match.group("q"):
        return match.group("quoted"), True, match.end()
    return match.group("bare").rstrip(_TRAIL), False, match.end()


def _accept(kind: str, mode: str, value: str, quoted: bool, mid: str) -> bool:
    """Whether `value`, named by a `kind` word and reached by `mode`, is a secret.

    `mode` is `explicit` (":", "="), `copula` ("is", "ist", "是", "は") or `direct` (the next
    word). Digits are a PIN or a numeric password; otherwise the rules of the predecessor hold:
    after ":" a value of ≥2 character classes or ≥10 characters; after "is" a word only when it
    mixes letters with digits or symbols, or its case; a quoted value of 6+ characters.
    """
    if kind == "pin" and _LOCK_CODE.fullmatch(value):
        return True  # a combination (12-34-56) or a keypad code with letters (4B21A)
    if not value or _placeholder(value) or _named_thing(value) or _CODE_REF.match(value):
        return False
    digits = value.rstrip("#*")
    if digits.isdigit() and digits.isascii():
        if kind == "pin":
            return 4 <= len(digits) <= 8 and not (mode == "direct" and _YEAR.fullmatch(digits))
        if kind in ("password", "pw"):
            return 4 <= len(digits) <= 12 and not (mode != "explicit" and _YEAR.fullmatch(digits))
        return kind == "code" and 4 <= len(digits) <= 8 and bool(words.PIN_CONTEXT.search(mid))
    if kind == "pin" or len(value) < 6 or not (quoted or any(c.isalpha() for c in value)):
        return False
    if mode != "explicit" and words.TECH_VALUE.match(value):
        return False
    classes = char_classes(value)
    if kind == "code":  # "κωδικός", "clave", "parola" also mean "code", "key", "word"
        symbol = any(not c.isalnum() and c not in "-_./" for c in value)
        if classes < 2 or not (any(c.islower() for c in value) or symbol):
            return False
    if kind == "weak":
        if mode == "direct":  # "bot token Zq8X…": only a long random token, never a digest
            return len(value) >= 20 and classes >= 3 and not _HEX_OR_UUID.match(value)
        return (classes >= 2 and any(c.isdigit() for c in value)
                and not _HEX_OR_UUID.match(value))
    if quoted:
        return True
    if mode == "explicit":
        return classes >= 2 or len(value) >= 10
    if kind == "token":
        return len(value) >= 12 and (classes >= 2 or bool(_HEX_OR_UUID.match(value)))
    has_letter = any(c.isalpha() for c in value)
    has_digit = any(c.isdigit() for c in value)
    if mode == "direct":
        return (has_letter and has_digit) or classes >= 3
    body = value[1:]
    mixed_case = any(c.isupper() for c in body) and any(c.islower() for c in value)
    return (has_letter and any(not c.isalpha() for c in value)) or mixed_case


def _window_end(text: str, start: int) -> int:
    end = min(len(text), start + _WINDOW)
    cut = _CLAUSE_END.search(text, start, end)
    return cut.start() if cut else end


# Between a secret word and its copula, only what it is for: "the secret for the webhook is …",
# "das Geheimnis für den Webhook ist …"; "my secret photo is …" names a photo.
_FOR_WORDS = wordset("for of to on für von vom zum zur pour de du des para del per di della "
                     "для от για του της için")


def _names_the_secret(mid: str) -> bool:
    words_between = mid.split()
    return not words_between or words_between[0].lower() in _FOR_WORDS


def _separated_value(text: str, kind: str, end: int, stop: int) -> bool:
    """Whether a separator after the word (at `end`, within the clause ending at `stop`)
    introduces a secret. A spaced ":" or dash whose value is not one ends the search (a
    glued one, as in "CSC:n", does not); a table cell ("|") always does."""
    for separator in words.SEPARATOR.finditer(text, end, min(len(text), stop + 4)):
        at = separator.start()
        mid = text[end:at]
        if at > stop or "|" in mid or (kind == "weak" and len(mid) > _WEAK_MID):
            return False
        explicit = bool(separator.group("explicit"))
        found = _value_at(text, separator.end())
        if kind == "weak" and not explicit:  # "the secret (for X) is …": a long random token
            if found and not found[1] and _names_the_secret(mid) and _accept(
                    kind, "direct", found[0], False, mid):
                return True
            continue
        if found is not None:
            value, quoted, value_end = found
            ambiguous = (quoted and " " in value and not explicit
                         and separator.group().strip().lower() in _WEAK_COPULAS)
            prose = not quoted and value.isalpha() and bool(_MORE_WORDS.match(text, value_end))
            mode = "explicit" if explicit else "copula"
            if not (ambiguous or prose) and _accept(kind, mode, value, quoted, mid):
                return True
        glued = text[at - 1:at].isalnum() and text[separator.end():separator.end() + 1].isalnum()
        if explicit and not glued:
            return False
    return False


def _phrase(text: str, lowered: str) -> str | None:
    """`pin` or `password` when credential wording names a value, else None."""
    worded = False
    for kind, match in words.find_words(text, lowered):
        worded = True
        start, end = match.span()
        if words.COMPOUND.match(text, end) or words.MANAGER_BEFORE.search(
                text, max(0, start - 30), start):
            continue
        code = "pin" if kind == "pin" else "password"
        if kind != "code" and kind != "pw" and (direct := _DIRECT.match(text, end)):
            found = _value_at(text, direct.end())
            if found and _accept(kind, "direct", found[0], found[1], ""):
                return code
        stop = _window_end(text, end)
        if _separated_value(text, kind, end, stop):
            return code
        word = match.group()
        if kind == "pin" and (word.startswith("PIN") or not word.isascii()):
            for digits in _PIN_DIGITS.finditer(text, end, min(stop, end + 60)):
                if not _YEAR.fullmatch(digits.group().rstrip("#")):
                    return "pin"
    for match in _REVERSED.finditer(text) if worded else ():
        value = match.group("value")
        if _accept("password", "copula", value.rstrip(_TRAIL), bool(match.group("quote")), ""):
            return "password"
    if ("/" in text or "|" in text) and any(a in lowered for a in _PAIR_ANCHORS):
        for match in _CREDENTIAL_PAIR.finditer(text):
            value = match.group("pw").rstrip(_TRAIL)
            if _accept("password", "direct", value, False, "") and not value.isdigit():
                return "password"
    return None


# -- 6. .env and config assignments -------------------------------------------------------------

_ASSIGN = lazy_compile(r"=(?!=)|:(?![/:])")
_NAME_PARTS = lazy_compile(r"[_.\-]+|(?<=[a-z0-9])(?=[A-Z])")
_STRONG_PARTS = wordset("""password passwd passwort pwd pass passphrase passcode pw secret secrets
    token tokens apikey credential credentials creds cred pat privatekey accesskey secretkey
    clientsecret pin""")
_GLUED = ("password", "passwd", "pwd", "secret", "token", "apikey", "credential", "credentials")
_NUMERIC_PARTS = wordset("password passwd passwort pwd pass passcode pin pw")
_KEY_PAIRS = wordset("""api private access secret account master signing encryption app auth
    service role shared storage subscription client consumer license""")
_QUALIFIERS = wordset("""url uri urls endpoint endpoints host hostname port ttl expiry expires
    expiration exp lifetime timeout length len size min max limit days hours minutes seconds secs
    ms name names id ids file filename files path paths dir directory folder enabled enable
    disabled disable required mode type types header headers algorithm algo alg issuer iss
    audience aud scope scopes region user username users login provider providers domain method
    methods strategy version policy format prefix suffix rotation count field fields env var vars
    variable location store backend cache label ref refs reference arn template kind class mount
    manager rounds cost iterations""")
_RANK = {"weak": 1, "auth": 2, "strong": 3}


def _name_strength(name: str) -> tuple[str, bool] | None:
    """How strongly a variable name says "secret", and whether digits can be its value."""
    parts = [p.lower() for p in _NAME_PARTS.split(name) if p]
    strength, numeric, last = "", False, -1
    for index, part in enumerate(parts):
        if part in ("auth", "authorization"):
            kind = "auth"
        elif part in _STRONG_PARTS or part.endswith(_GLUED):
            kind = "strong"
        elif part in ("key", "keys") or part.endswith(("apikey", "secretkey", "privatekey")):
            kind = "strong" if index and parts[index - 1] in _KEY_PAIRS else "weak"
        else:
            continue
        last = index
        numeric = numeric or part in _NUMERIC_PARTS or part.endswith(("password", "passwd", "pwd"))
        if _RANK[kind] > _RANK.get(strength, 0):
            strength = kind
    if last < 0 or any(p in _QUALIFIERS for p in parts[last + 1:]):
        return None
    return strength, numeric


def _env_value(value: str, *, quoted: bool, strength: str, numeric: bool, spaced: bool,
               colon: bool) -> bool:
    """Whether an assigned value is a real secret rather than a placeholder or a reference."""
    if not value or _placeholder(value) or value[0] == "$" or _CODE_REF.match(value):
        return False
    if "://" in value or _PATHLIKE.match(value) or value.lower() in words.PRODUCTS:
        return False
    if value.isdigit():
        return numeric and 4 <= len(value) <= 12
    if not quoted and spaced and _IDENTIFIER.fullmatch(value):
        return False  # `password = password_from_vault`: a variable, not a value
    if _REF_NAME.fullmatch(value) and _name_strength(value):
        return False  # `secretKeyRef: DB_PASSWORD`
    classes = char_classes(value)
    if strength == "weak":
        hex_like = bool(_HEX_OR_UUID.match(value))
        if len(value) < 16 or _FINGERPRINT.match(value) or (hex_like and (
                "-" in value or len(value) < 24)):
            return False
        return hex_like or classes >= 3 or (
            classes >= 2 and entropy(value) >= 3.5)
    if strength == "auth":
        return len(value) >= 8 and (classes >= 2 or ":" in value)
    if colon and not quoted:
        return len(value) >= 6 and (classes >= 2 or len(value) >= 10)
    return len(value) >= (4 if numeric else 8)


_ENV_ANCHORS = ("pass", "pwd", "secret", "token", "key", "auth", "cred", "pin")
_VALUE_MAX = 256  # an assigned value is read no further (a long PEM is a vendor shape)


def _env_assignment(text: str, lowered: str) -> bool:
    """`NAME=value`, `NAME: value`, `"name": "value"` with a secret-naming name."""
    if ("=" not in text and ":" not in text) or not any(a in lowered for a in _ENV_ANCHORS):
        return False
    for separator in _ASSIGN.finditer(text):
        sep = separator.start()
        end = sep
        while end and text[end - 1] in " \t":
            end -= 1
        quote = text[end - 1] if end and text[end - 1] in "\"'" else ""
        end -= len(quote)
        begin = end
        while begin and (text[begin - 1].isalnum() or text[begin - 1] in "_.-"):
            begin -= 1
        name = text[begin:end]
        if not name or not (name[0].isalpha() or name[0] == "_"):
            continue
        if not any(a in lowered[begin:end] for a in _ENV_ANCHORS):
            continue
        before = text[begin - 1] if begin else ""
        if (before and before in "$%{") or (quote and before != quote):
            continue
        colon = text[sep] == ":"
        if colon and not (quote or any(c in name for c in "_-.")
                          or (any(c.isupper() for c in name[1:]) and not name.isupper())):
            continue  # a plain word before ":" is wording, judged by the phrase rule
        rated = _name_strength(name)
        if rated is None:
            continue
        pos = sep + 1
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        spaced = pos > sep + 1 or end < sep
        value, quoted = _assigned_value(text, pos, query=before in "?&" and bool(before))
        if _env_value(value, quoted=quoted, strength=rated[0], numeric=rated[1], spaced=spaced,
                      colon=colon):
            return True
    return False


def _assigned_value(text: str, pos: int, *, query: bool) -> tuple[str, bool]:
    if pos < len(text) and text[pos] in "\"'`":
        close = text.find(text[pos], pos + 1, pos + _VALUE_MAX)
        newline = text.find("\n", pos + 1, pos + _VALUE_MAX)
        if close > pos and (newline < 0 or close < newline):
            return text[pos + 1:close], True
    end, limit = pos, min(len(text), pos + _VALUE_MAX)
    stops = " \t\n\"'`" + ("&#" if query else "")
    while end < limit and text[end] not in stops:
        end += 1
    return text[pos:end].rstrip(",;)]}"), False


# -- 7. high entropy near wording ---------------------------------------------------------------

_SEP = r"[\s_-]?"
_CONTEXT_WORDS = lazy_compile(
    rf"\b(?:api{_SEP}keys?|secret{_SEP}keys?|access{_SEP}tokens?|auth{_SEP}tokens?|"
    rf"refresh{_SEP}tokens?|client{_SEP}secrets?|private{_SEP}keys?|pass{_SEP}phrase|"
    rf"pass{_SEP}words?|passwd|pwd|credentials?|tokens?|secrets?|api{_SEP}secret|"
    r"contraseña|clave|passwort|kennwort|mot de passe|пароль|κωδικός)\b"
    r"|密码|密碼|パスワード|비밀번호|رمز عبور|گذرواژه|पासवर्ड",
    re.IGNORECASE,
)
_STRIP = lazy_compile(r"^[^A-Za-z0-9+/=_-]+|[^A-Za-z0-9+/=_-]+$")
_IMAGE_BASE64 = ("iVBORw0KGgo", "/9j/", "R0lGOD", "UklGR", "PHN2Zy", "Qk0")
_CONTEXT_WINDOW = 120
_ASSIGNED = lazy_compile(r"[A-Za-z_][\w.-]*=")
_IDENTIFIER_PATH = lazy_compile(r"[A-Za-z_]+(?:\.[A-Za-z_]+)+")
_SHELL_VARIABLE = lazy_compile(r"\$\{|\$\(|\$[A-Z_]{3,}")


def _pieces(text: str) -> Iterator[tuple[int, int, str]]:
    for match in re.finditer(r"\S+", text):
        piece = _ASSIGNED.sub("", match.group(), count=1)  # `NAME=value`: judge the value
        yield match.start(), match.end(), _STRIP.sub("", piece)


def _near(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return any(start - _CONTEXT_WINDOW <= s_end and s_start <= end + _CONTEXT_WINDOW
               for s_start, s_end in spans)


def _exempt(piece: str) -> bool:
    """Never a secret: digests, UUIDs, fingerprints, URLs, paths, base64 image data,
    placeholders and references (`secrets.GITHUB_TOKEN`, `os.environ[...]`)."""
    return bool(
        _HEX_OR_UUID.match(piece) or _FINGERPRINT.match(piece) or "://" in piece
        or _placeholder(piece) or "{" in piece or _CODE_REF.match(piece)
        or _REF_NAME.fullmatch(piece) or _IDENTIFIER_PATH.fullmatch(piece)
        or _SHELL_VARIABLE.search(piece)
        or _PATHLIKE.match(piece) or piece.startswith(_IMAGE_BASE64) or piece.count("/") >= 2
    )


# -- the stage ----------------------------------------------------------------------------------

_FIELD_MIN = 8  # no rule refuses fewer characters ("PIN 4821")


class CredentialsStage(BaseStage):
    """Refuses credentials (`secret.<kind>`) in any field, always redacted."""

    name = "credentials"
    stateless = True

    class Options(BaseModel):
        min_entropy_bits: float = Field(default=3.5, gt=0)
        min_token_length: int = Field(default=20, ge=8)
        min_classes: int = Field(default=3, ge=1, le=4)

    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        for field, value in _fields(candidate):
            found = self.detect(value)
            if found is None:
                continue
            kind, label = found
            where = "this looks like" if field == "text" else f"the {field} looks like"
            return StageResult.reject(
                f"secret.{kind}",
                f"Rejected: {where} {label}. Credentials are never stored in shared memory: "
                "every session reads memory back and it may sync to remote stores. Keep the "
                "secret in a password manager and save where it lives instead, e.g. \"Jam's "
                "database password is in 1Password under 'prod-db'\".",
                redact=True,
            )
        return StageResult.passed()

    def detect(self, text: str) -> tuple[str, str] | None:
        """The (kind, label) of the first credential found in `text`, or None."""
        if len(text) < _FIELD_MIN:
            return None
        lowered = text.lower()
        longest = max(map(len, text.split()), default=0)
        shape = find_shape(text, lowered, longest)
        if shape is not None:
            return shape.kind, shape.label
        if _connection_password(text):
            return "connection_string", "a URL or connection string with a password"
        if _cli_password(text, lowered):
            return "cli_password", "a password on a command line"
        if "otpauth:" in text and _OTPAUTH.search(text):
            return "otpauth_uri", "a 2FA (otpauth://) secret"
        if _totp_seed(text):
            return "totp_seed", "a 2FA (TOTP) seed"
        if _backup_codes(text):
            return "backup_codes", "2FA backup or recovery codes"
        if _card_number(text):
            return "card_number", "a payment card number"
        if find_seed_phrase(text):
            return "seed_phrase", "a wallet seed (recovery) phrase"
        phrase = _phrase(text, lowered)
        if phrase == "pin":
            return "pin", "a PIN"
        if phrase:
            return "password", "a password or key assignment"
        if _env_assignment(text, lowered):
            return "env_assignment", "a secret assigned to a variable (.env or config)"
        if longest >= self.options.min_token_length and self._high_entropy(text):
            return "high_entropy", "a high-entropy token next to credential wording"
        return None

    def _high_entropy(self, text: str) -> bool:
        spans = [m.span() for m in _CONTEXT_WORDS.finditer(text)]
        if not spans:
            return False
        for start, end, piece in _pieces(text):
            if len(piece) < self.options.min_token_length or not _near(start, end, spans):
                continue
            if _exempt(piece):
                continue
            if (char_classes(piece) >= self.options.min_classes
                    and entropy(piece) >= self.options.min_entropy_bits):
                return True
        return False


def _fields(candidate: Candidate) -> Iterator[tuple[str, str]]:
    """Every field a secret could ride in: the text first, then the subject and scope as the
    caller sent them (the canonical form only when the raw one is unknown: folding `_` and
    `.` into `-` turns placeholders into look-alikes), the type, the client's declared name
    and version, the provenance and the origin."""
    yield "text", candidate.text
    client = candidate.client
    seen = {candidate.text}
    raw_subject = candidate.annotations.get("raw_subject")
    raw_scope = candidate.annotations.get("raw_scope")
    for field, value in (
        ("subject", raw_subject if isinstance(raw_subject, str) else candidate.subject),
        ("scope", raw_scope if isinstance(raw_scope, str) else candidate.scope),
        ("type", candidate.type), ("client name", client.name if client else None),
        ("client version", client.version if client else None),
        ("provenance", candidate.provenance), ("origin", candidate.origin),
    ):
        if isinstance(value, str) and len(value) >= _FIELD_MIN and value not in seen:
            seen.add(value)
            yield field, value
