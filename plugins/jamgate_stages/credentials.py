"""Credentials: refuse anything that looks like a secret, before any other content rule.

Three grounds, first hit wins, every refusal redacted (the text is never logged):
1. vendor shapes (`sk-…`, `AKIA…`, `ghp_…`, JWT, PEM headers, connection strings with a password…);
2. an assignment: a credential word and a value in either order ("password: …",
   "the password for the db is …", "hunter2 is my password", "pw: …", "my PIN is 4821");
3. a token of ≥20 characters with ≥3 character classes and ≥3.5 bits/char of entropy near
   credential wording.
Precision first: hex digests (git SHAs, hashes), UUIDs, URLs, paths and base64 image data are
never secrets by rule 3, and prose values ("printed on the router", "in 1Password") never
satisfy rule 2.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pydantic import BaseModel, Field

from jamgate_core import BaseStage, Candidate, StageContext, StageResult
from jamgate_stages._text import char_classes, entropy

_B = r"(?<![A-Za-z0-9_])"  # leading boundary: the prefix must not be glued to a word
_E = r"(?![A-Za-z0-9_-])"  # trailing boundary for fixed-length bodies

# (kind, label, pattern), most specific first.
_SHAPES: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (kind, label, re.compile(pattern, flags))
    for kind, label, pattern, flags in (
        ("private_key", "a private key",
         r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d|"
         rf"{_B}AGE-SECRET-KEY-1[0-9A-Z]{{50,}}", 0),
        ("anthropic_key", "an Anthropic API key",
         rf"{_B}sk-ant-(?:api|admin|oat)\d{{2}}-[A-Za-z0-9_-]{{20,}}", 0),
        ("openai_key", "an OpenAI API key",
         rf"{_B}sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{{20,}}", 0),
        ("api_key", "an API key (sk-… format)", rf"{_B}sk-[A-Za-z0-9_-]{{16,}}", 0),
        ("stripe_key", "a Stripe key", rf"{_B}(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{{10,}}", 0),
        ("aws_key", "an AWS access key id", rf"{_B}(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{{16}}\b", 0),
        ("github_token", "a GitHub token",
         rf"{_B}(?:gh[pousr]_[A-Za-z0-9]{{20,}}|github_pat_[A-Za-z0-9_]{{20,}})", 0),
        ("gitlab_token", "a GitLab token", rf"{_B}glpat-[A-Za-z0-9_-]{{16,}}", 0),
        ("npm_token", "an npm token", rf"{_B}npm_[A-Za-z0-9]{{30,}}", 0),
        ("slack_token", "a Slack token", rf"{_B}xox[abposr]-[A-Za-z0-9-]{{10,}}", 0),
        ("slack_webhook", "a Slack webhook URL",
         r"hooks\.slack\.com/services/T[A-Za-z0-9]+/B[A-Za-z0-9]+/[A-Za-z0-9]{16,}", 0),
        ("discord_webhook", "a Discord webhook URL",
         r"discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{40,}", 0),
        ("google_api_key", "a Google API key", rf"{_B}AIza[A-Za-z0-9_-]{{35}}{_E}", 0),
        ("google_oauth_secret", "a Google OAuth client secret",
         rf"{_B}GOCSPX-[A-Za-z0-9_-]{{24,}}|{_B}ya29\.[A-Za-z0-9_-]{{30,}}", 0),
        ("huggingface_token", "a Hugging Face token", rf"{_B}hf_[A-Za-z]{{30,}}{_E}", 0),
        ("sendgrid_key", "a SendGrid API key",
         rf"{_B}SG\.[A-Za-z0-9_-]{{16,}}\.[A-Za-z0-9_-]{{16,}}", 0),
        ("twilio_key", "a Twilio API key", rf"{_B}SK[0-9a-f]{{32}}\b", 0),
        ("digitalocean_token", "a DigitalOcean token", rf"{_B}do[opr]_v1_[a-f0-9]{{64}}{_E}", 0),
        ("shopify_token", "a Shopify access token",
         rf"{_B}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{{32}}{_E}", 0),
        ("telegram_token", "a Telegram bot token", rf"{_B}\d{{8,10}}:AA[A-Za-z0-9_-]{{33}}{_E}", 0),
        ("discord_token", "a Discord bot token",
         rf"{_B}[MNO][A-Za-z0-9_-]{{23,25}}\.[A-Za-z0-9_-]{{6}}\.[A-Za-z0-9_-]{{27,38}}{_E}", 0),
        ("azure_key", "an Azure key",
         r"AccountKey=[A-Za-z0-9+/]{40,}={0,2}|SharedAccessKey=[A-Za-z0-9+/]{20,}={0,2}|"
         rf"{_B}[A-Za-z0-9_~.-]{{3}}\dQ~[A-Za-z0-9_~.-]{{31,34}}{_E}", 0),
        ("jwt", "a JWT",
         rf"{_B}eyJ[A-Za-z0-9_-]{{8,}}\.[A-Za-z0-9_-]{{8,}}\.[A-Za-z0-9_-]{{8,}}", 0),
        ("bearer_token", "a bearer token", r"\bbearer\s+[A-Za-z0-9_\-.=+/~]{20,}", re.IGNORECASE),
        ("basic_auth", "a basic-auth header",
         r"\bauthorization:\s*basic\s+[A-Za-z0-9+/]{12,}={0,2}", re.IGNORECASE),
    )
)

_CONNECTION = re.compile(
    r"\b[a-z][a-z0-9+.-]{1,20}://(?P<user>[^\s:/@]*):(?P<password>[^\s@/]{3,})@[^\s/@]+",
    re.IGNORECASE,
)
_PLACEHOLDER_VALUE = re.compile(
    r"^(?:<[^>]*>|\{[^}]*\}|\$\{?[A-Za-z_]+\}?|\*+|x+|\.+|password|pass|secret|"
    r"your[-_]?password|redacted|\[redacted\])$",
    re.IGNORECASE,
)

# Credential words for the assignment rule. `value_first` words may also end the sentence in
# the reversed order ("hunter2 is my password").
_SEP = r"[\s_-]?"
_ASSIGN_WORDS = (
    rf"pass{_SEP}words?|passwd|pwd|pass{_SEP}phrase|pass{_SEP}code|api{_SEP}keys?|"
    rf"secret{_SEP}(?:access{_SEP})?keys?|access{_SEP}(?:tokens?|keys?)|auth{_SEP}tokens?|"
    rf"refresh{_SEP}tokens?|session{_SEP}tokens?|client{_SEP}secrets?|"
    r"contraseña|clave|passwort|kennwort|mot de passe|пароль|κωδικός|пароли"
)
_COLON_ONLY_WORDS = r"pw|token|secret"
_PREPOSITION = (
    r"(?:\s+(?:for|to|of|on|at|de|del|de la|du|des|para|pour|für|vom|von|zum|zur|di|"
    r"della|do|da)\b[^.;:!?\n]{0,100}?)?"
)
_ASSIGNMENT = re.compile(
    rf"\b(?:{_ASSIGN_WORDS}){_PREPOSITION}\s*(?P<sep>:|=|==>|->|：|\b(?:is|was|es|ist|est)\b)"
    r"\s*(?P<quote>[\"'`«“]?)(?P<value>\S{6,})",
    re.IGNORECASE,
)
_COLON_ASSIGNMENT = re.compile(
    rf"\b(?:{_COLON_ONLY_WORDS})\s*(?P<sep>:|=|：)\s*(?P<quote>[\"'`]?)(?P<value>\S{{6,}})",
    re.IGNORECASE,
)
_REVERSED = re.compile(
    r"(?:^|\s)(?P<quote>[\"'`]?)(?P<value>\S{6,}?)[\"'`]?\s+(?:is|was)\s+"
    r"(?:(?:my|our|his|her|their|the|jam's|[a-z]+'s)\s+)?(?:[a-z]+\s+){0,2}?"
    r"(?:password|passphrase|passcode|pwd|pin)(?=\s*(?:$|[.,;!)]|\s+(?:for|to|of|on)\b))",
    re.IGNORECASE,
)
_PIN = re.compile(
    r"\b(?:pin|pin\s+code|passcode)\b(?:\s+(?:for|to|of|on)\b[^.;:!?\n]{0,60}?)?\s*"
    r"(?::|=|\bis\b|\bwas\b)\s*(?P<value>\d{4,8})\b",
    re.IGNORECASE,
)
_PATHLIKE = re.compile(r"^(?:/|~/|\./|[A-Za-z]:\\)")

_CONTEXT_WORDS = re.compile(
    rf"\b(?:api{_SEP}keys?|secret{_SEP}keys?|access{_SEP}tokens?|auth{_SEP}tokens?|"
    rf"refresh{_SEP}tokens?|client{_SEP}secrets?|private{_SEP}keys?|pass{_SEP}phrase|"
    rf"pass{_SEP}words?|passwd|pwd|credentials?|tokens?|secrets?|api{_SEP}secret|"
    r"contraseña|clave|passwort|kennwort|mot de passe|пароль|κωδικός)\b"
    r"|密码|密碼|パスワード|비밀번호|رمز عبور|گذرواژه|पासवर्ड",
    re.IGNORECASE,
)
_AWS_SECRET_CONTEXT = re.compile(r"\baws\b|secret[\s_-]?access[\s_-]?key", re.IGNORECASE)
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
_STRIP = re.compile(r"^[^A-Za-z0-9+/=_-]+|[^A-Za-z0-9+/=_-]+$")
_HEX_OR_UUID = re.compile(
    r"^(?:[0-9a-fA-F]+|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
    r"[0-9a-fA-F]{12}|(?:sha\d*|md5)[:=-][0-9a-fA-F]+)$"
)
_IMAGE_BASE64 = ("iVBORw0KGgo", "/9j/", "R0lGOD", "UklGR", "PHN2Zy", "Qk0")
_CONTEXT_WINDOW = 120


class CredentialsStage(BaseStage):
    """Refuses credentials (`secret.<kind>`), always redacted."""

    name = "credentials"

    class Options(BaseModel):
        min_entropy_bits: float = Field(default=3.5, gt=0)
        min_token_length: int = Field(default=20, ge=8)
        min_classes: int = Field(default=3, ge=1, le=4)


    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        found = self.detect(candidate.text)
        for field in ("subject", "scope"):  # as the caller sent them, before canonical form
            raw = candidate.annotations.get(f"raw_{field}")
            if found is None and isinstance(raw, str) and raw:
                found = self.detect(raw)
        if found is None:
            return StageResult.passed()
        kind, label = found
        return StageResult.reject(
            f"secret.{kind}",
            f"Rejected: this looks like {label}. Credentials are never stored in shared memory: "
            "every session reads memory back and it may sync to remote stores. Keep the secret "
            "in a password manager and save where it lives instead, e.g. \"Jam's database "
            "password is in 1Password under 'prod-db'\".",
            redact=True,
        )

    def detect(self, text: str) -> tuple[str, str] | None:
        """The (kind, label) of the first credential found in `text`, or None."""
        for kind, label, pattern in _SHAPES:
            if pattern.search(text):
                return kind, label
        if _connection_password(text):
            return "connection_string", "a connection string with a password"
        if _aws_secret(text):
            return "aws_secret_key", "an AWS secret access key"
        if _PIN.search(text):
            return "pin", "a PIN"
        if _assignment(text):
            return "password", "a password or key assignment"
        if self._high_entropy(text):
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


def _pieces(text: str) -> Iterator[tuple[int, int, str]]:
    for match in re.finditer(r"\S+", text):
        piece = _STRIP.sub("", match.group())
        yield match.start(), match.end(), piece


def _near(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return any(start - _CONTEXT_WINDOW <= s_end and s_start <= end + _CONTEXT_WINDOW
               for s_start, s_end in spans)


def _exempt(piece: str) -> bool:
    """Never a secret: digests, UUIDs, URLs, paths, base64 image data."""
    return bool(
        _HEX_OR_UUID.match(piece) or "://" in piece or _PATHLIKE.match(piece)
        or piece.startswith(_IMAGE_BASE64) or piece.count("/") >= 2
    )


def _secret_value(value: str, *, explicit: bool, quoted: bool) -> bool:
    """Whether an assigned value looks like a secret rather than prose.

    After `:`/`=` (`explicit`) the predecessor's rule holds: ≥2 character classes or ≥10
    characters. After `is`/`was` a word is prose unless it mixes letters with digits or
    symbols, or its case beyond the first letter; a quoted value of 6+ characters is a value.
    """
    value = value.rstrip(".,;:!?)\"'`»”")
    if len(value) < 6 or _PLACEHOLDER_VALUE.match(value) or _PATHLIKE.match(value):
        return False
    if quoted:
        return True
    if explicit:
        return char_classes(value) >= 2 or len(value) >= 10
    body = value[1:]
    mixed_case = any(c.isupper() for c in body) and any(c.islower() for c in value)
    has_letter = any(c.isalpha() for c in value)
    has_other = any(not c.isalpha() for c in value)
    return (has_letter and has_other) or mixed_case


def _assignment(text: str) -> bool:
    for match in _ASSIGNMENT.finditer(text):
        explicit = match.group("sep").lower() not in {"is", "was", "es", "ist", "est"}
        if _secret_value(match.group("value"), explicit=explicit,
                         quoted=bool(match.group("quote"))):
            return True
    for match in _COLON_ASSIGNMENT.finditer(text):
        # "token"/"secret" are common words: their value must mix character classes.
        value = match.group("value")
        if char_classes(value.rstrip(".,;:!?")) >= 2 and _secret_value(
            value, explicit=True, quoted=bool(match.group("quote"))
        ):
            return True
    for match in _REVERSED.finditer(text):
        if _secret_value(match.group("value"), explicit=False, quoted=bool(match.group("quote"))):
            return True
    return False


def _connection_password(text: str) -> bool:
    for match in _CONNECTION.finditer(text):
        if not _PLACEHOLDER_VALUE.match(match.group("password")):
            return True
    return False


def _aws_secret(text: str) -> bool:
    if not _AWS_SECRET_CONTEXT.search(text):
        return False
    for match in _AWS_SECRET.finditer(text):
        token = match.group()
        if any(c.isupper() for c in token) and any(c.islower() for c in token) and any(
            c.isdigit() for c in token
        ):
            return True
    return False
