"""Random tokens: a high-entropy piece of text near credential wording is a secret (the
credentials stage's last rule), and one anywhere is a key nobody's table knows, kept out of the
gate log (D-381). A piece is a whitespace-separated token, a `NAME=` assignment's value judged
alone; digests, UUIDs, fingerprints, URLs, paths, base64 image data, placeholders and
references are never secrets (`_exempt`), but a URL's parts are read for the log."""

from __future__ import annotations

import re
from collections.abc import Iterator

from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._secret_shapes import mixed
from jamgate_stages._secret_values import CODE_REF as _CODE_REF
from jamgate_stages._secret_values import FINGERPRINT as _FINGERPRINT
from jamgate_stages._secret_values import HEX_OR_UUID as _HEX_OR_UUID
from jamgate_stages._secret_values import PATHLIKE as _PATHLIKE
from jamgate_stages._secret_values import REF_NAME as _REF_NAME
from jamgate_stages._secret_values import placeholder as _placeholder
from jamgate_stages._text import char_classes, entropy

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
_URL_PARTS = lazy_compile(r"[/?&=#:@]+")


def random_token(text: str, min_length: int, min_classes: int, min_bits: float, *,
                 near_wording: bool) -> bool:
    """Whether `text` holds a piece of at least `min_length` characters, `min_classes`
    character classes and `min_bits` of entropy a character that is no exempt shape: within
    reach of credential wording when `near_wording` (a secret); anywhere otherwise, a URL's
    parts included, when it mixes upper and lower case with digits (unfit to log; a product
    code in capitals is not)."""
    spans = [m.span() for m in _CONTEXT_WORDS.finditer(text)] if near_wording else []
    if near_wording and not spans:
        return False
    for start, end, piece in _pieces(text):
        if len(piece) < min_length or (near_wording and not _near(start, end, spans)):
            continue
        parts = [piece] if near_wording or "://" not in piece else _URL_PARTS.split(piece)
        for part in parts:
            if (len(part) >= min_length and not _exempt(part) and (near_wording or mixed(part))
                    and char_classes(part) >= min_classes and entropy(part) >= min_bits):
                return True
    return False
