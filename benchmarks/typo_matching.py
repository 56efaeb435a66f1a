"""Typo matching in recall: rapidfuzz's OSA distance against the hand-written one it replaced.

Builds a vocabulary from the LoCoMo observations (or, without ../shared/data, from the gate
corpus), misspells 200 of its words with one or two random edits (seeded), and asks both
implementations for each misspelling's matches: prints how many answers agree and the time per
unknown word. Run: .venv/bin/python benchmarks/typo_matching.py
"""

from __future__ import annotations

import random
import re
import statistics
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from jamgate_adapters.stores.kit.lexical import typo_limit, typo_matches
from jamgate_core.text import is_cjk

ROOT = Path(__file__).resolve().parents[1]
LOCOMO = ROOT.parent / "shared" / "data" / "locomo_dev.json"


def hand_written_distance(a: str, b: str, limit: int) -> int:
    """The previous implementation: Levenshtein with adjacent transpositions, cut at limit."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


def hand_written_matches(term: str, vocabulary: Iterable[str]) -> list[str]:
    limit = typo_limit(term)
    if limit == 0 or any(is_cjk(ch) for ch in term):
        return []
    found = [(hand_written_distance(term, word, limit), word) for word in vocabulary
             if word[:1] == term[:1] and abs(len(word) - len(term)) <= limit and word != term]
    return [word for distance, word in sorted(found) if distance <= limit][:3]


def vocabulary() -> list[str]:
    if LOCOMO.exists():
        text = LOCOMO.read_text(encoding="utf-8")
    else:
        corpus = (ROOT / "tests" / "corpus").rglob("*")
        text = " ".join(p.read_text(encoding="utf-8") for p in corpus
                        if p.is_file() and p.suffix in (".json", ".jsonl", ".txt", ".md"))
    return sorted({w for w in re.findall(r"[a-z]{4,}", text.lower())})


def misspell(word: str, rng: random.Random) -> str:
    chars = list(word)
    for _ in range(rng.choice((1, 2)) if len(word) >= 8 else 1):
        at = rng.randrange(1, len(chars))  # keep the first character, as matching requires
        edit = rng.choice(("swap", "drop", "add", "change"))
        if edit == "swap" and at < len(chars) - 1:
            chars[at], chars[at + 1] = chars[at + 1], chars[at]
        elif edit == "drop" and len(chars) > 4:
            del chars[at]
        elif edit == "add":
            chars.insert(at, rng.choice("abcdefghijklmnopqrstuvwxyz"))
        else:
            chars[at] = rng.choice("abcdefghijklmnopqrstuvwxyz")
    return "".join(chars)


def per_word_ms(find: Callable[[str, list[str]], list[str]], words: list[str],
                vocab: list[str]) -> float:
    times = []
    for word in words:
        start = time.perf_counter()
        find(word, vocab)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    vocab = vocabulary()
    rng = random.Random(19)
    words = [misspell(w, rng) for w in rng.sample(vocab, 200)]
    same = sum(hand_written_matches(w, vocab) == typo_matches(w, vocab) for w in words)
    old = per_word_ms(hand_written_matches, words, vocab)
    new = per_word_ms(typo_matches, words, vocab)
    print(f"vocabulary {len(vocab):,} words; 200 misspellings; same matches {same}/200")
    print(f"hand-written {old:.2f} ms per unknown word (median); rapidfuzz {new:.2f} ms "
          f"= {old / new:.0f}x faster")


if __name__ == "__main__":
    main()
