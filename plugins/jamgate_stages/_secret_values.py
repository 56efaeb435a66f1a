"""What a credential value is not: a placeholder (`<YOUR_KEY>`, `${VAR}`, `xxx`, `changeme`), a
path, a digest or UUID, a key fingerprint, a reference in code (`os.environ[...]`) or an
environment variable's name. Shared by the credentials stage's rule modules."""

from __future__ import annotations

import re

from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._secret_slots import empty_slot

PLACEHOLDER = lazy_compile(
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


def placeholder(value: str) -> bool:
    """A stand-in for a secret: `<YOUR_KEY>`, `${VAR}`, `xxx`, `…`, `changeme`, `sk-...`, or
    a slot named in any language (`«passwort»`, `%(password)s`, `ваш_пароль`: `_secret_slots`)."""
    return bool(PLACEHOLDER.fullmatch(value) or "..." in value or "…" in value
                or value.startswith(("<", "${", "{{", "$(", "!secret", "!vault", "!env", "!Ref"))
                or empty_slot(value))


PATHLIKE = lazy_compile(r"^(?:/|~/|\./|\.\./|[A-Za-z]:\\)")
HEX_OR_UUID = lazy_compile(
    r"^(?:[0-9a-fA-F]+|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
    r"[0-9a-fA-F]{12}|(?:sha\d*|md5)[:=-][0-9a-fA-F]+)$"
)
FINGERPRINT = lazy_compile(r"^(?:SHA\d*|MD5|sha\d*|md5)[:=]")
# A reference to a secret, not the secret: `os.environ[...]`, `secrets.X`, `getpass()`.
CODE_REF = lazy_compile(
    r"(?:os\.|process\.env|import\.meta|env\(|env\[|ENV\[|getenv|System\.getenv|config\.|"
    r"settings\.|secrets\.|vars\.|inputs\.|self\.|this\.|request\.|params\.|args\.|opts?\.|"
    r"options\.|[A-Za-z_][\w.]*\()"
)
IDENTIFIER = lazy_compile(r"[A-Za-z_]+")
REF_NAME = lazy_compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")  # an env var's name: DB_PASSWORD


# The case shapes a word or a name has, one letter a character (`U` upper, `l` lower): all
# lower, all upper, or capitalised parts ("PayPal", "LinkedIn"), perhaps opened by a few
# lower-case letters ("iPhone", "pfSense") or capitals ("OAuth") and closed by a short acronym
# ("PostgreSQL", "ChatGPT").
_WORD_CASE = lazy_compile(r"l+|U+|(?:l{1,3}|U{1,4}l+)(?:Ul+)*U{0,3}")
_VOWELS = frozenset("aeiouyAEIOUY")
UNWORDED_MIN = 8
_VOWEL_SHARE_MIN = 0.2  # Latin words and names hold more (random letters about 0.23 on average)


def unworded(value: str) -> bool:
    """A value of letters only that no word or name could be: eight letters or more in both
    cases, whose case is no word's ("xqAYfwFBHP": capitals inside where no name puts them) or,
    in Latin letters, with almost no vowels ("FPbjTozxWq"). Language-free: it reads the case
    of any cased script and the vowels of the Latin one, not a dictionary (D-387)."""
    if len(value) < UNWORDED_MIN or not value.isalpha():
        return False
    shape = "".join("U" if c.isupper() else "l" if c.islower() else "" for c in value)
    if len(shape) != len(value) or "U" not in shape or "l" not in shape:
        return False
    if not _WORD_CASE.fullmatch(shape):
        return True
    return value.isascii() and sum(c in _VOWELS for c in value) < _VOWEL_SHARE_MIN * len(value)
