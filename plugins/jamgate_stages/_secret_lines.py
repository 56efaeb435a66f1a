"""Passwords carried by URLs, connection strings, command lines and credential files.

- URLs and connection strings with a password (`postgres://app:…@db`, `jdbc:…?password=…`);
- command lines, one row a tool (`_CLI`): `sshpass -p`, `mysql -p…`, `curl -u user:pass`,
  `docker login -p`, `sqlplus user/pass@db`, `openssl … pass:…`, `7z -p…`, `zip -P`,
  `ldapsearch -w`, `htpasswd -b`, `xfreerdp /p:`, `net use … /user:x pass`, a password echoed
  into `sudo -S` or `--password-stdin`, `--password=…`;
- credential files by their line format (`_FILE_LINES`): `.pgpass`, `.netrc`, a Wi-Fi QR
  code's payload (`WIFI:…;P:…;`).
A value that is a placeholder, a variable (`$PASS`), a path or a prompt (`-p` alone) is none.
"""

from __future__ import annotations

import re

from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._secret_values import PATHLIKE, placeholder

_CONNECTION = lazy_compile(
    r"\b[a-z][a-z0-9+.-]{1,20}://(?P<user>[^\s:/@]*):(?P<password>[^\s@/]{3,})@[^\s/@]+",
    re.IGNORECASE,
)
_QUERY_PASSWORD = lazy_compile(
    r"(?:jdbc:[a-z0-9]+:|://)\S*?[?&;](?:password|pwd|pass)=(?P<password>[^&;\s]{3,})",
    re.IGNORECASE,
)
_ARG = r"(?P<v>'[^'\n]*'|\"[^\"\n]*\"|[^\s'\"]+)"
_SEGMENT = r"[^\n|;&]"  # within one command: no pipe, no `;`, no `&&`
# (anchor, pattern): the pattern only runs on a lowercased text holding its anchor.
_CLI: tuple[tuple[str, re.Pattern[str]], ...] = tuple((a, lazy_compile(p)) for a, p in (
    ("sshpass", rf"\bsshpass\b{_SEGMENT}{{0,40}}?\s-p\s*{_ARG}"),
    ("mysql", rf"\b(?:mysql|mysqldump|mysqladmin|mysqlsh)\b{_SEGMENT}{{0,120}}?\s-p{_ARG}"),
    ("mariadb", rf"\bmariadb(?:-dump)?\b{_SEGMENT}{{0,120}}?\s-p{_ARG}"),
    ("curl", rf"\bcurl\b{_SEGMENT}{{0,200}}?\s(?:-u|--user)[\s=]*{_ARG}"),
    ("login", rf"\b(?:docker|podman|helm|nerdctl|buildah|skopeo|oras|az)\b{_SEGMENT}{{0,30}}?"
              rf"\blogin\b{_SEGMENT}{{0,160}}?\s(?:-p|--password)[\s=]+{_ARG}"),
    ("mongo", rf"\bmongo(?:sh|dump|restore|import|export)?\b{_SEGMENT}{{0,160}}?\s(?:-p|"
              rf"--password)[\s=]+{_ARG}"),
    ("redis-cli", rf"\bredis-cli\b{_SEGMENT}{{0,80}}?\s(?:-a|--pass)\s+{_ARG}"),
    ("sqlcmd", rf"\bsqlcmd\b{_SEGMENT}{{0,120}}?\s-P\s*{_ARG}"),
    ("smbclient", rf"\bsmbclient\b{_SEGMENT}{{0,120}}?\s-U\s+[^\s%]+%{_ARG}"),
    ("--", rf"(?<![\w-])--(?:(?:http|ftp|db|admin|proxy|registry|client)-)?(?:password|passwd|"
           rf"pass|pwd|token|api-key|apikey|api-token|secret|auth-token|access-token)[= ]{_ARG}"),
    ("sql", r"\b(?:sqlplus|sqlldr|expdp|impdp|rman)\b[^\n|;&]{0,40}?\s[\w$#.-]+/"
            r"(?P<v>[^\s/@'\"]+)@"),
    ("pass:", rf"\s-pass(?:in|out)?\s+pass:{_ARG}"),
    ("7z", rf"\b(?:7z|7za|7zz|rar|unrar)\b{_SEGMENT}{{0,80}}?\s-p{_ARG}"),
    ("zip", rf"\bzip\b{_SEGMENT}{{0,80}}?\s(?:-P|--password)\s+{_ARG}"),
    ("ldap", rf"\bldap(?:search|add|modify|delete|passwd|whoami|compare)\b{_SEGMENT}{{0,160}}?"
             rf"\s-w\s+{_ARG}"),
    ("htpasswd", rf"\bhtpasswd\s+-\w*b\w*\s+(?:-\w+\s+)*[^\s-]\S*\s+[^\s-]\S*\s+{_ARG}"),
    ("/p:", rf"\b\w*freerdp\b{_SEGMENT}{{0,160}}?\s/p:{_ARG}"),
    ("net ", rf"\bnet\s+use\b{_SEGMENT}{{0,120}}?\s/user:\S+\s+{_ARG}"),
    ("sudo", rf"\b(?:echo|printf)\s+(?:-n\s+)?{_ARG}\s*\|\s*sudo\b{_SEGMENT}{{0,20}}?\s-\w*S"),
    ("-stdin", rf"\b(?:echo|printf)\s+(?:-n\s+)?{_ARG}\s*\|{_SEGMENT}{{0,120}}?"
               rf"--password-stdin"),
))
# Credential files by their line format: `host:port:db:user:password` (.pgpass), `machine … login
# … password …` (.netrc), a Wi-Fi QR code's payload.
_FILE_LINES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (a, lazy_compile(p, f)) for a, p, f in (
    (":", r"^[ \t]*(?:[\w.-]+|\*|\[[0-9a-f:]+\]):(?:\d{2,5}|\*):(?:[\w.-]+|\*):(?:[\w.@-]+|\*):"
          r"(?P<v>[^\s:]{4,})[ \t]*$", re.MULTILINE),
    ("machine", r"\bmachine\s+\S+\s+login\s+\S+\s+password\s+(?P<v>\S+)", 0),
    ("wifi:", r"\bWIFI:(?:[^;\n]*;)*?P:(?P<v>[^;\n]{4,});", re.IGNORECASE),
    ))


def connection_password(text: str) -> bool:
    """A URL or connection string with a password that is not a placeholder or a variable."""
    if "://" not in text and "jdbc:" not in text.lower():
        return False
    for pattern in (_CONNECTION, _QUERY_PASSWORD):
        for match in pattern.finditer(text):
            password = match.group("password")
            if not placeholder(password) and not password.startswith("$"):
                return True
    return False


def _real(value: str) -> bool:
    return (len(value) >= 4 and not value.startswith(("$", "-")) and "=" not in value
            and not placeholder(value) and not PATHLIKE.match(value))


def cli_password(text: str, lowered: str) -> bool:
    """A password or token written on a command line."""
    if "-" not in text and "/" not in text:
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
            if _real(value):
                return True
    return False


def file_line_password(text: str, lowered: str) -> bool:
    """A line of `.pgpass` or `.netrc`, or a Wi-Fi QR payload, holding a password."""
    for anchor, pattern in _FILE_LINES:
        if anchor not in lowered:
            continue
        for match in pattern.finditer(text):
            value = match.group("v").strip("'\"")
            if _real(value) and not (anchor == ":" and value.isdigit() and len(value) > 8):
                return True
    return False
