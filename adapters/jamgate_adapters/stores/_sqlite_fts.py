"""Safe FTS5 queries: the user's words, quoted, never their syntax."""

from __future__ import annotations

from jamgate_adapters.stores._common import STOPWORDS, script_runs, words


def _quoted(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def fts_query(query: str) -> str | None:
    """An FTS5 MATCH expression for `query`, or None when it has no words.

    Each word is quoted and the words are OR-ed (stopwords dropped unless nothing else is
    left). A CJK run of 2+ characters becomes a phrase of its bigrams in the `grams` column,
    so it matches wherever it occurs as a substring; a single CJK character is looked up in
    the `chars` column.
    """
    found = words(query)
    content = [w for w in found if w not in STOPWORDS] or found
    parts: list[str] = []
    for word in content:
        for cjk, run in script_runs(word):
            if not cjk:
                parts.append(_quoted(run))
            elif len(run) == 1:
                parts.append(f"chars : {_quoted(run)}")
            else:
                bigrams = " ".join(run[i:i + 2] for i in range(len(run) - 1))
                parts.append(f"grams : {_quoted(bigrams)}")
    return " OR ".join(dict.fromkeys(parts)) or None
