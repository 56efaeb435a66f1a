"""World-knowledge sentences for distant supervision: Debian's package descriptions (issue #16).

A package's long description opens with a claim about the world ("X is a free program for
…") written by others, and Debian's translation project (DDTP) carries the same descriptions
into many languages. `world_sentences(n)` answers up to `n` first sentences a language, read
from bookworm's `main/i18n/Translation-*` files, which it fetches once (from the archive
apt reads here, `mirror()`) into `.cache/world/` (git-ignored) and checks against the
release's SHA-256 sums. Nothing of the text is committed to the repository: only weights
trained beside it may be.

A description qualifies when its English original is no packaging boilerplate ("This package
contains …", a transitional or debug package, development files); its first sentence when it
is declarative, 30–200 characters, one line of prose (no list, URL or address).
"""

from __future__ import annotations

import bz2
import hashlib
import json
import lzma
import os
import random
import re
import sys
import urllib.request
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "world"
SUITE = "bookworm"
# bookworm's translations with more than a few hundred descriptions (others are stubs)
LANGUAGES = ("en", "ca", "cs", "da", "de", "es", "fi", "fr", "hu", "it", "ja", "ko", "nl",
             "pl", "pt", "pt_BR", "ru", "sk", "sr", "sv", "uk", "vi", "zh_CN", "zh_TW")
BOILERPLATE = re.compile(
    r"\b(this|the) (meta)?package\b|\bpackages? (contains?|provides?|includes?)\b|"
    r"transitional|dummy|debug(ging)? symbols|development files|header files|"
    r"\bdocumentation\b|\bdata files\b|\bplugin for\b|\bmodule for\b|\bbindings?\b",
    re.IGNORECASE)
URLISH = re.compile(r"https?:|://|www\.|@|\.(org|com|net)\b|\s[*o-]\s|^\W")
# a line break inside Chinese or Japanese prose is no space
_CJK = "[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]"
WRAPPED_CJK = re.compile(f"(?<={_CJK}) (?={_CJK})")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[^a-z\s])|(?<=[。！？])")


@cache
def mirror() -> str:
    """The Debian archive this machine's apt reads (`JAMGATE_DEBIAN_MIRROR` overrides): the
    first source whose path ends in `/debian`, from the deb822 `.sources` files or
    `sources.list`."""
    if configured := os.environ.get("JAMGATE_DEBIAN_MIRROR"):
        return configured.rstrip("/")
    apt = Path("/etc/apt")
    for path in [*sorted(apt.glob("sources.list.d/*.sources")), apt / "sources.list",
                 *sorted(apt.glob("sources.list.d/*.list"))]:
        text = path.read_text() if path.is_file() else ""
        for found in re.findall(r"^(?:URIs:|deb(?:\s+\[[^]]*\])?)\s+(\S+)", text, re.MULTILINE):
            if found.rstrip("/").endswith("/debian"):
                return str(found.rstrip("/"))
    raise RuntimeError("no Debian archive in apt's sources: set JAMGATE_DEBIAN_MIRROR")


def _fetch(name: str, sums: dict[str, str]) -> Path:
    path = CACHE / name
    if not path.exists():
        print(f"world sentences: fetching {name}", file=sys.stderr)
        url = f"{mirror()}/dists/{SUITE}/main/i18n/{name}"
        with urllib.request.urlopen(url, timeout=60) as answer:
            data = answer.read()
        if hashlib.sha256(data).hexdigest() != sums[name]:
            raise ValueError(f"{name}: SHA-256 differs from the release's")
        path.write_bytes(data)
    return path


def _release_sums() -> dict[str, str]:
    """The SHA-256 of each `main/i18n/` file the release lists."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / "Release"
    if not path.exists():
        with urllib.request.urlopen(f"{mirror()}/dists/{SUITE}/Release", timeout=60) as answer:
            path.write_bytes(answer.read())
    sums: dict[str, str] = {}
    section = ""
    for line in path.read_text().splitlines():
        if not line.startswith(" "):
            section = line.rstrip(":")
        elif section == "SHA256":
            digest, _, name = line.split()
            if name.startswith("main/i18n/"):
                sums[name.removeprefix("main/i18n/")] = digest
    return sums


def _descriptions(path: Path) -> dict[str, str]:
    """Description-md5 → the long description's first paragraph, joined into one line."""
    opener = lzma.open if path.suffix == ".xz" else bz2.open
    with opener(path, "rt", encoding="utf-8") as stream:
        text = stream.read()
    out: dict[str, str] = {}
    for block in text.split("\n\n"):
        md5, lines = "", []
        for line in block.splitlines():
            if line.startswith("Description-md5:"):
                md5 = line.split(":", 1)[1].strip()
            elif line.startswith(" "):
                if line.strip() == ".":
                    break
                lines.append(line.strip())
        if md5 and lines and md5 not in out:
            out[md5] = WRAPPED_CJK.sub("", " ".join(lines))
    return out


def first_sentence(paragraph: str) -> str | None:
    """The paragraph's first sentence if it is a declarative line of prose, 30–200 chars."""
    sentence = SENTENCE_END.split(paragraph, maxsplit=1)[0].strip()
    if not 30 <= len(sentence) <= 200 or URLISH.search(sentence):
        return None
    if not sentence.endswith((".", "。")) or sentence.endswith(("...", "etc.")):
        return None
    return sentence


def _extract(language: str, sums: dict[str, str], clean: set[str]) -> list[str]:
    name = next(n for n in (f"Translation-{language}.bz2", f"Translation-{language}.xz")
                if n in sums)
    seen: set[str] = set()
    out = []
    for md5, paragraph in sorted(_descriptions(_fetch(name, sums)).items()):
        sentence = first_sentence(paragraph) if md5 in clean else None
        if sentence and sentence not in seen:
            seen.add(sentence)
            out.append(sentence)
    return out


def world_sentences(per_language: int, seed: int = 16) -> list[tuple[str, str]]:
    """Up to `per_language` (language, sentence) pairs a language, sampled with `seed`;
    the language as the corpus writes it (`pt_BR` → `pt`, `zh_CN` → `zh`)."""
    extracted = CACHE / "sentences.json"
    if not extracted.exists():
        sums = _release_sums()
        english = _descriptions(_fetch("Translation-en.xz", sums))
        clean = {md5 for md5, text in english.items()
                 if first_sentence(text) and not BOILERPLATE.search(text.split(". ")[0])}
        table = {language: _extract(language, sums, clean) for language in LANGUAGES}
        extracted.write_text(json.dumps(table, ensure_ascii=False))
    table = json.loads(extracted.read_text())
    rng = random.Random(seed)
    out = []
    for language, sentences in sorted(table.items()):
        pick = rng.sample(sentences, min(per_language, len(sentences)))
        out += [(language.split("_")[0], sentence) for sentence in pick]
    return out


if __name__ == "__main__":  # counts only: the sentences are not ours to print at length
    pairs = world_sentences(10**6)
    counts: dict[str, int] = {}
    for language, _ in pairs:
        counts[language] = counts.get(language, 0) + 1
    print(json.dumps(counts))
