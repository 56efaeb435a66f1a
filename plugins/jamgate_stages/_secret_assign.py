"""`.env` and config assignments, and code or markup that pairs a secret's name with its value.

A name holds a credential word with any prefix or suffix (`APP_DB_PASSWORD`, `"apiKey"`,
`client-key-data`); its value must be real: no placeholder, reference, public key or metadata
such as `TOKEN_TTL=3600`. Code and markup forms: `define('DB_PASSWORD', '…')`,
`os.environ["API_KEY"] = "…"`, `<password>…</password>`, `<add key="…" value="…"/>`,
`setx NAME value`, `auth=("user", "…")`.
"""

from __future__ import annotations

import re

from jamgate_stages import _secret_words as words
from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._secret_values import CODE_REF as _CODE_REF
from jamgate_stages._secret_values import FINGERPRINT as _FINGERPRINT
from jamgate_stages._secret_values import HEX_OR_UUID as _HEX_OR_UUID
from jamgate_stages._secret_values import IDENTIFIER as _IDENTIFIER
from jamgate_stages._secret_values import PATHLIKE as _PATHLIKE
from jamgate_stages._secret_values import REF_NAME as _REF_NAME
from jamgate_stages._secret_values import placeholder as _placeholder
from jamgate_stages._text import char_classes, entropy, wordset

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
_PUBLIC = wordset("public pub publishable")
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
            if (index and parts[index - 1] in _PUBLIC) or part.startswith(("public", "pub")):
                continue  # `PublicKey = …` in a WireGuard peer, `PUBLISHABLE_KEY`: public
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


# Code and markup that pair a secret's name with its value without `NAME=value`:
# `define('DB_PASSWORD', '…')`, `os.environ["API_KEY"] = "…"`, `<password>…</password>`,
# `<add key="ApiKey" value="…"/>`, `setx API_KEY …`; and `auth=("user", "…")`, whose name is
# implied. (pattern, whether the name is given) — the name, if given, must name a secret.
_CODE_FORMS: tuple[tuple[re.Pattern[str], bool], ...] = tuple(
    (lazy_compile(p, re.IGNORECASE), named) for p, named in (
        (r"(?P<q>['\"])(?P<n>[A-Za-z_][\w.-]*)(?P=q)\s*(?:\]\s*=|,)\s*['\"](?P<v>[^'\"\n]{1,256})['\"]",
         True),
        (r"\bkey\s*=\s*\"(?P<n>[^\"\n]+)\"\s+value\s*=\s*\"(?P<v>[^\"\n]{1,256})\"", True),
        (r"<(?P<n>[A-Za-z_][\w.:-]*)>(?P<v>[^<\n]{1,256})</(?P=n)>", True),
        (r"\bsetx\s+(?P<n>[A-Za-z_]\w*)\s+\"?(?P<v>[^\s\"]+)", True),
        (r"(?:\bauth\s*=\s*\(|Http(?:Basic|Digest)Auth\(|BasicAuth\()\s*['\"][^'\"\n]+['\"]\s*,\s*"
         r"['\"](?P<v>[^'\"\n]{4,})['\"]", False),
    ))


def code_assignment(text: str, lowered: str) -> bool:
    """A secret's value paired with its name by code or markup (`_CODE_FORMS`)."""
    if not any(a in lowered for a in _ENV_ANCHORS) or (
            not any(c in text for c in "'\"<") and "setx" not in lowered):
        return False
    for pattern, named in _CODE_FORMS:
        for match in pattern.finditer(text):
            rated = _name_strength(match.group("n")) if named else ("strong", True)
            if rated and _env_value(match.group("v"), quoted=True, strength=rated[0],
                                    numeric=rated[1], spaced=False, colon=False):
                return True
    return False


_ENV_ANCHORS = ("pass", "pwd", "secret", "token", "key", "auth", "cred", "pin")
_VALUE_MAX = 256  # an assigned value is read no further (a long PEM is a vendor shape)


def env_assignment(text: str, lowered: str) -> bool:
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
