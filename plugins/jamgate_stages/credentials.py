"""Credentials: refuse anything that looks like a secret, in any field, before any other rule.

Grounds, first hit wins, every refusal redacted (the text is never logged):
1. vendor shapes, one maintained table (`_secret_shapes.SHAPES`): `sk-…`, `AKIA…`, `ghp_…`,
   JWTs, PEM private keys and their bare bodies, Azure SAS signatures…;
2. URLs and connection strings with a password; passwords on command lines (`sshpass -p`,
   `mysql -p…`, `curl -u user:pass`, `sqlplus u/p@db`, `--password=…`); credential files by
   their line format (`.pgpass`, `.netrc`, a Wi-Fi QR payload) — all in `_secret_lines`;
3. 2FA material: `otpauth://` URIs, TOTP seeds near 2FA wording, lists of backup codes;
4. Luhn-valid card numbers (issuer prefix and length checked; near card wording or an expiry
   date, or in the 4-4-4-4 layout); BIP-39 seed phrases (≥12 words of one wordlist, any
   language `mnemonic` ships: a plain list of 12 such words is refused too);
5. credential wording with a value, in many languages (`_secret_words`): "my password is …",
   "mein Passwort ist …", "密码是…", "PIN 4821", "hunter2 is my password", a security
   answer, "user: admin pass: …", a strong value closing the clause ("A jelszavam a
   netbankhoz Balaton2024!");
6. `.env`/config assignments whose name holds a credential word with any prefix or suffix
   (`APP_DB_PASSWORD=…`, `"key": "…"`) and a real value, and the same pair in code or markup
   (`define('DB_PASSWORD', …)`, `<password>…</password>`) — in `_secret_assign`;
7. a high-entropy token near credential wording (`_secret_entropy`; a random token anywhere
   passes, marked unfit to log).
Not secrets: git SHAs, UUIDs, digests, key fingerprints, public keys, ids and codes (ISNI,
ORCID, DOI, order numbers), bank account numbers and IBANs (shared to receive money), env var
names without values, placeholders, and prose about passwords ("my password manager is
1Password").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pydantic import BaseModel, Field

from jamgate_core import BaseStage, Candidate, StageContext, StageResult
from jamgate_stages import _secret_words as words
from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._secret_assign import code_assignment, env_assignment
from jamgate_stages._secret_entropy import random_token
from jamgate_stages._secret_lines import cli_password, connection_password, file_line_password
from jamgate_stages._secret_shapes import SHAPES, find_shape
from jamgate_stages._secret_values import CODE_REF as _CODE_REF
from jamgate_stages._secret_values import HEX_OR_UUID as _HEX_OR_UUID
from jamgate_stages._secret_values import PATHLIKE as _PATHLIKE
from jamgate_stages._secret_values import REF_NAME as _REF_NAME
from jamgate_stages._secret_values import placeholder as _placeholder
from jamgate_stages._secret_values import unworded as _unworded
from jamgate_stages._seed_phrase import find_seed_phrase
from jamgate_stages._text import char_classes, reading, wordset

# (kind, label, pattern) of every vendor shape that needs no context: the corpus checks use it.
_SHAPES: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (shape.kind, shape.label, shape.regex) for shape in SHAPES if shape.context is None
)

_EMAIL = lazy_compile(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}")
_VERSION = lazy_compile(r"v?\d+(?:\.\d+)+(?:[-+][\w.]+)?")
_DATE = lazy_compile(r"\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?Z?)?")
_YEAR = lazy_compile(r"19[5-9]\d|20[0-3]\d")
_TRAIL = ".,;:!?)]}»”’'\"`"
_PROCLITIC = lazy_compile(r"^[\u05d0-\u05ea\u0600-\u06ff]{1,2}-?(?=[A-Za-z0-9])")


def _named_thing(value: str) -> bool:
    """A value that is not a secret: a product, e-mail, URL, path, version, date or an
    environment variable's name."""
    bare = _PROCLITIC.sub("", value)
    return bool(bare.lower() in words.PRODUCTS or _EMAIL.fullmatch(value) or "://" in value
                or _REF_NAME.fullmatch(value) or _PATHLIKE.match(value)
                or _VERSION.fullmatch(value) or _DATE.fullmatch(value)
                or value.lower().startswith("www."))


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
_LOCK_CODE = lazy_compile(r"\d{1,3}(?:-\d{1,3}){2,3}|(?=(?:\D*\d){3})[0-9A-FА-ЯЁ]{4,8}#?")
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
# "user: admin pass: R0uter…", "login=jam, pw=…": a user and then a bare `pass`/`pw` label.
_USER_PASS = lazy_compile(
    r"(?<!\w)(?:user(?:name)?|login|usr|benutzer(?:name)?|usuario|utilisateur|identifiant)\s*[:=]"
    r"\s*[^\s,;]+[\s,;/|-]+(?:pass|pw|pwd|p/w|mdp)\s*[:=]\s*(?P<pw>[^\s,;|]+)",
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
    if kind == "answer":  # a name or a word: after "is" only a capitalised one or with a digit
        return len(value) >= 2 and (quoted or mode == "explicit" or value[0].isupper()
                                    or any(c.isdigit() for c in value))
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
    if mode == "direct":  # "password Tr0ub4dor", "WLAN-Schlüssel pOoastvQjV" (D-387)
        return (has_letter and has_digit) or classes >= 3 or _unworded(value)
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


def _direct_at(text: str, end: int) -> int | None:
    """Where a value right after the word starts: after blanks, or at once after a CJK word
    ("支付密码917364")."""
    if direct := _DIRECT.match(text, end):
        return direct.end()
    glued = end < len(text) and text[end].isascii() and text[end].isalnum()
    return end if glued and end and "\u2e80" <= text[end - 1] <= "\u9fff" else None


_SOV_COPULA = wordset("است هست है हैं です だ 입니다 dir dır dur dür tir tır tur tür")
_CLOSING_MAX_WORDS = 5


def _value_closes_clause(text: str, end: int, stop: int) -> bool:
    """A password word, a few words naming the account and the value closing the clause with
    no separator ("A jelszavam a netbankhoz Balaton2024!", "رمز عبور ایمیل من Tehran#1402 است"):
    only a value no word or name could be (letters and digits with mixed case or a symbol, or
    letters whose case is no word's, D-387)."""
    if not (stop == len(text) or _CLAUSE_END.match(text, stop)):
        return False  # the window ended mid-clause: its last word is not the clause's
    clause = text[end:stop]
    parts = clause.split()
    if parts and parts[-1] in _SOV_COPULA:
        parts.pop()
    if not 2 <= len(parts) <= _CLOSING_MAX_WORDS + 1 or words.SEPARATOR.search(clause):
        return False
    value = parts[-1].rstrip(",;")
    symbol = any(not c.isalnum() and c not in "-_./:'’" for c in value)
    mixed_case = any(c.isupper() for c in value) and any(c.islower() for c in value)
    random = (len(value) >= 8 and any(c.isalpha() for c in value)
              and any(c.isdigit() for c in value) and (mixed_case or symbol))
    return (random or _unworded(value)) and not (
        _placeholder(value) or _named_thing(value) or _HEX_OR_UUID.match(value)
        or words.TECH_VALUE.match(value) or _CODE_REF.match(value))


_SLOT_OPEN = "<‹«〈＜《【[{("
_SLOT_CLOSE = ">›»〉＞》】]})"


def _slot_name(text: str, start: int, end: int) -> bool:
    """A word that is a template's slot (`<password>@db`, `{password}@`, `‹口令>@`): wrapped,
    and its wrapper followed by no separator, so it introduces no value."""
    if not (start and text[start - 1] in _SLOT_OPEN and text[end:end + 1] in tuple(_SLOT_CLOSE)):
        return False
    return text[end + 1:end + 2] not in (":", "=", "：", "＝", " ", "\t", "\n", "")


def _phrase(text: str, lowered: str) -> str | None:
    """`pin` or `password` when credential wording names a value, else None."""
    worded = False
    for kind, match in words.find_words(text, lowered):
        worded = True
        start, end = match.span()
        if words.COMPOUND.match(text, end) or words.MANAGER_BEFORE.search(
                text, max(0, start - 30), start) or _slot_name(text, start, end):
            continue
        code = "pin" if kind == "pin" else "password"
        if kind not in ("code", "pw", "answer") and (at := _direct_at(text, end)) is not None:
            found = _value_at(text, at)
            if found and _accept(kind, "direct", found[0], found[1], ""):
                return code
        stop = _window_end(text, end)
        if _separated_value(text, kind, end, stop):
            return code
        if kind == "password" and _value_closes_clause(text, end, stop):
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
    if ("pass" in lowered or "pw" in lowered or "mdp" in lowered) and (
            pair := _USER_PASS.search(text)) and _accept(
                "password", "explicit", pair.group("pw").rstrip(_TRAIL), False, ""):
        return "password"
    if ("/" in text or "|" in text) and any(a in lowered for a in _PAIR_ANCHORS):
        for match in _CREDENTIAL_PAIR.finditer(text):
            value = match.group("pw").rstrip(_TRAIL)
            if _accept("password", "direct", value, False, "") and not value.isdigit():
                return "password"
    return None


# -- the stage ----------------------------------------------------------------------------------

_FIELD_MIN = 8  # no rule refuses fewer characters ("PIN 4821")
_UNLOGGED_MIN = 16


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
        # A random token no rule names may still be a key: kept or refused by the stages
        # after this one, its text is never logged (D-381).
        text = candidate.text
        return StageResult(redact=len(text) >= _UNLOGGED_MIN and self._random(text, False))

    def detect(self, text: str) -> tuple[str, str] | None:
        """The (kind, label) of the first credential found in `text`, or None."""
        if len(text) < _FIELD_MIN:
            return None
        text = reading(text)
        lowered = text.lower()
        longest = max(map(len, text.split()), default=0)
        shape = find_shape(text, lowered, longest)
        if shape is not None:
            return shape.kind, shape.label
        if connection_password(text):
            return "connection_string", "a URL or connection string with a password"
        if cli_password(text, lowered):
            return "cli_password", "a password on a command line"
        if file_line_password(text, lowered):
            return "credential_file", "a line of a credential file (.pgpass, .netrc, Wi-Fi QR)"
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
        if env_assignment(text, lowered) or code_assignment(text, lowered):
            return "env_assignment", "a secret assigned to a variable (.env or config)"
        if longest >= self.options.min_token_length and self._random(text, True):
            return "high_entropy", "a high-entropy token next to credential wording"
        return None

    def _random(self, text: str, near_wording: bool) -> bool:
        options = self.options
        length = options.min_token_length if near_wording else _UNLOGGED_MIN
        return random_token(text, length, options.min_classes, options.min_entropy_bits,
                            near_wording=near_wording)


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
