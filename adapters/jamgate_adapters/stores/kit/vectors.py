"""A scope's vectors in memory for repeated cosine scans (`VectorMatrix`), kept up to date row by
row: `put` adds or replaces a row, `remove` drops one, neither rebuilds the rest.

With numpy (the `semantic` extra) the rows are unit float32 vectors in one buffer that grows by
doubling (4 bytes a dimension: 15 MB for 10,000 × 384); without it the same maths runs in pure
Python. numpy is imported on first use, never when this module is imported.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple, Protocol

from jamgate_adapters.stores.kit.ranking import discounted, norm

_NUMPY: list[Any] = []


def numpy_module() -> Any:
    """numpy, imported on first call; None when it is not installed. Its BLAS is asked for
    one thread when numpy was not loaded yet (D-147): a matrix-vector product over a scope is
    memory-bound, and on a busy machine BLAS threads waiting for a core cost 5–10× more."""
    if not _NUMPY:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        try:
            import numpy
        except ImportError:
            numpy = None  # type: ignore[assignment]
        _NUMPY.append(numpy)
    return _NUMPY[0]


# Rows normalised at once when a matrix is filled (`extend`).
_BLOCK = 1_024

# The fewest candidates asked of an approximate index (its recall of the exact top 40 grows
# with them; measured in docs/benchmarks.md, D-185).
CANDIDATES = 400


class Candidates(Protocol):
    """What proposes rows for `VectorMatrix.ranked`: keys of highest inner product."""

    def candidates(self, direction: Any, count: int) -> list[object] | None: ...


class Nearest(NamedTuple):
    """What `VectorMatrix.ranked` finds: (key, cosine) best first, each hit's adjusted cosine,
    and the mean and standard deviation of the adjusted cosine over every live row."""

    hits: list[tuple[object, float]]
    adjusted: dict[object, float]
    mean: float
    spread: float


class VectorMatrix:
    """The live-or-expiring vectors of one scope, normalised once, for repeated cosine scans.

    Rows carry a key (the store's record id), the expiry as a POSIX timestamp (inf for none)
    and the vector. `ranked(vector, now, k)` finds the rows live at `now` closest to a vector.
    Removing a row moves the last row into its place, so row order is not insertion order.
    """

    def __init__(self, rows: Iterable[tuple[object, float, Sequence[float]]], dim: int,
                 expected: int = 0) -> None:
        """`expected`: about how many rows `rows` holds, so the buffer is sized once (with
        an eighth for growth) rather than doubled and trimmed: a doubling's copy and the
        trim's held two buffers of 12–25 MB at once at 10,000 rows (D-237)."""
        self.dim = dim
        self.keys: list[object]
        self._row: dict[object, int]
        np = numpy_module()
        self._np = np
        self._rows: list[tuple[list[float], float]] = []
        self._expires: list[float] = []
        if np is not None:
            room = max(expected, 0) * 9 // 8 + 16
            self._units = np.zeros((room, dim), dtype=np.float32)
            self._expiry = np.full(room, math.inf, dtype=np.float64)
            # The sum of the unit rows (float64, kept as rows change): the centroid, for free.
            self._sum = np.zeros(dim, dtype=np.float64)
        # Σ u·uᵀ over the rows (float64), kept only once `track_moments` was called: the
        # mean and spread of every row's adjusted cosine without a scan (the approximate path).
        self._moment: Any = None
        self.keys, self._row = [], {}
        self.extend(rows)
        if np is not None and len(self._units) > len(self.keys) * 9 // 8 + 16:
            room = len(self.keys) * 9 // 8 + 16  # keep an eighth for growth, not the doubling
            self._units = self._units[:room].copy()
            self._expiry = self._expiry[:room].copy()

    def extend(self, rows: Iterable[tuple[object, float, Sequence[float]]]) -> None:
        """Add rows whose keys are not in the matrix yet (a vector may be any float32 buffer,
        such as an `array('f')`: copied straight into the matrix, normalised in place)."""
        if self._np is None:
            for key, expires, vector in rows:
                self.put(key, expires, vector)
            return
        np = self._np
        start = len(self.keys)
        later = []
        for key, expires, vector in rows:
            if len(vector) != self.dim or key in self._row:
                later.append((key, expires, vector))
                continue
            n = len(self.keys)
            if n == len(self._units):
                self._grow()
            self._units[n] = (np.frombuffer(vector, dtype=np.float32)
                              if getattr(vector, "typecode", "") == "f" else vector)
            self._expiry[n] = expires
            self.keys.append(key)
            self._row[key] = n
        added = self._units[start:len(self.keys)]
        # normalised a block of rows at a time: `norm` squares what it is given into a
        # temporary copy (15 MB for 10,000 rows at once); row by row the same bits (D-237)
        for low in range(0, len(added), _BLOCK):
            block = added[low:low + _BLOCK]
            norms = np.linalg.norm(block, axis=1)
            norms[norms == 0] = 1.0
            block /= norms[:, None]
        self._sum += added.sum(axis=0, dtype=np.float64)
        if self._moment is not None:
            self._moment += _gram(np, added)
        for key, expires, vector in later:
            self.put(key, expires, vector)

    def __len__(self) -> int:
        return len(self.keys)

    def __contains__(self, key: object) -> bool:
        return key in self._row

    # --- changes ----------------------------------------------------------------------------

    def put(self, key: object, expires: float, vector: Sequence[float]) -> None:
        """Add the row, or replace the row with this key."""
        if len(vector) != self.dim:
            self.remove(key)
            return
        n = self._row.get(key)
        if n is not None and self._np is not None:
            self._unaccount(n)
        if n is None:
            n = len(self.keys)
            self.keys.append(key)
            self._row[key] = n
            if self._np is None:
                self._rows.append(([], 0.0))
                self._expires.append(expires)
            elif n == len(self._units):
                self._grow()
        if self._np is None:
            self._rows[n] = (list(vector), norm(vector))
            self._expires[n] = expires
            return
        row = self._np.asarray(vector, dtype=self._np.float32)
        size = float(self._np.linalg.norm(row))
        self._units[n] = row / size if size > 0 else row
        self._expiry[n] = expires
        self._sum += self._units[n]
        if self._moment is not None:
            row64 = self._units[n].astype(self._np.float64)
            self._moment += self._np.outer(row64, row64)

    def remove(self, key: object) -> None:
        """Drop the row with this key (nothing when there is none)."""
        n = self._row.pop(key, None)
        if n is None:
            return
        if self._np is not None:
            self._unaccount(n)
        last = len(self.keys) - 1
        if n != last:
            moved = self.keys[last]
            self.keys[n] = moved
            self._row[moved] = n
            if self._np is None:
                self._rows[n], self._expires[n] = self._rows[last], self._expires[last]
            else:
                self._units[n] = self._units[last]
                self._expiry[n] = self._expiry[last]
        self.keys.pop()
        if self._np is None:
            self._rows.pop()
            self._expires.pop()
        else:
            self._expiry[last] = math.inf

    def _unaccount(self, n: int) -> None:
        """Take row `n` out of the running sums (before it is replaced or removed)."""
        self._sum -= self._units[n]
        if self._moment is not None:
            row64 = self._units[n].astype(self._np.float64)
            self._moment -= self._np.outer(row64, row64)

    def track_moments(self) -> None:
        """Keep Σ u·uᵀ from now on (computed once here, in float64 blocks)."""
        if self._np is not None and self._moment is None:
            self._moment = _gram(self._np, self._units[:len(self.keys)])

    def units(self, keys: Sequence[object] | None = None) -> Any:
        """A copy of the unit rows (all, or these keys' in this order), float32; numpy only."""
        if keys is None:
            return self._units[:len(self.keys)].copy()
        return self._units[[self._row[key] for key in keys]]

    def _grow(self) -> None:
        np = self._np
        size = len(self._units) * 2
        units = np.zeros((size, self.dim), dtype=np.float32)
        units[:len(self._units)] = self._units
        expiry = np.full(size, math.inf, dtype=np.float64)
        expiry[:len(self._expiry)] = self._expiry
        self._units, self._expiry = units, expiry

    # --- reads ------------------------------------------------------------------------------

    def ranked(self, vector: Sequence[float], now: datetime, k: int,
               also: Iterable[object] = (), discount: float = 0.0,
               index: Candidates | None = None) -> Nearest:
        """The `k` live rows of best adjusted cosine (plus the live rows keyed in `also`), best
        first. A row's adjusted cosine is its cosine less `discount` × its cosine with the
        centroid of the live (unit) rows; `mean` and `spread` describe it over every live row.
        With an `index` (and moments tracked) only the rows it proposes are scored, exactly;
        the mean and spread come from the running moments, so they are still every row's."""
        if self._np is None:
            return self._ranked_python(vector, now, k, also, discount)
        empty = Nearest([], {}, 0.0, 0.0)
        query = self._unit_query(vector)
        if query is None:
            return empty
        if index is not None and self._moment is not None:
            found = self._ranked_approximate(query, now, k, also, discount, index)
            if found is not None:
                return found
        np = self._np
        count = len(self.keys)
        units = self._units[:count]
        live = self._expiry[:count] > now.timestamp()
        if not live.any():
            return empty
        if discount:  # U·q − d·U·c in one product: U·(q − d·c)
            centroid = self._sum / count if bool(live.all()) else units[live].mean(axis=0)
            adjusted = units @ (query - discount * centroid.astype(np.float32))
        else:
            adjusted = units @ query
        alive = adjusted[live]
        rows = np.nonzero(live)[0]
        picked_count = min(k, len(rows))
        picked = (rows[np.argpartition(-alive, picked_count - 1)[:picked_count]]
                  if picked_count else rows[:0])
        extra = [n for key in also if (n := self._row.get(key)) is not None and live[n]]
        chosen = sorted(set(picked.tolist()) | set(extra), key=lambda n: -float(adjusted[n]))
        scores = units[chosen] @ query if chosen else []
        return Nearest([(self.keys[n], min(max(float(score), -1.0), 1.0))
                        for n, score in zip(chosen, scores, strict=True)],
                       {self.keys[n]: float(adjusted[n]) for n in chosen},
                       float(alive.mean()), float(alive.std()))

    def _unit_query(self, vector: Sequence[float]) -> Any:
        """The query as a unit float32 row; None when it cannot match (wrong length, zero,
        or no rows)."""
        if len(vector) != self.dim or not self.keys:
            return None
        query = self._np.asarray(vector, dtype=self._np.float32)
        size = float(self._np.linalg.norm(query))
        return query / size if size > 0 else None

    def _ranked_approximate(self, query: Any, now: datetime, k: int, also: Iterable[object],
                            discount: float, index: Candidates) -> Nearest | None:
        """`ranked` from the index's candidates, re-ranked exactly; mean and spread over the
        live rows from Σu and Σu·uᵀ less the expired rows' share. None when the index
        proposes nothing it could stand by (`ApproximateIndex.candidates`)."""
        np = self._np
        empty = Nearest([], {}, 0.0, 0.0)
        count = len(self.keys)
        live = self._expiry[:count] > now.timestamp()
        total, moment, alive = self._sum, self._moment, count
        if not bool(live.all()):
            gone = self._units[:count][~live].astype(np.float64)
            total, moment = total - gone.sum(axis=0), moment - gone.T @ gone
            alive = count - len(gone)
        if not alive:
            return empty
        centroid = total / alive
        direction = (query - discount * centroid.astype(np.float32)) if discount else query
        wanted = direction.astype(np.float64)
        mean = float(centroid @ wanted)
        spread = math.sqrt(max(float(wanted @ moment @ wanted) / alive - mean * mean, 0.0))
        proposed = index.candidates(direction, max(4 * k, CANDIDATES))
        if proposed is None:
            return None
        rows = [n for key in proposed if (n := self._row.get(key)) is not None and live[n]]
        rows += [n for key in also if (n := self._row.get(key)) is not None and live[n]]
        rows = list(dict.fromkeys(rows))
        if not rows:
            return Nearest([], {}, mean, spread)
        picked = self._units[rows]
        adjusted = picked @ direction
        best = np.argsort(-adjusted, kind="stable")
        extra = {self._row[key] for key in also if key in self._row}
        chosen = [int(m) for rank, m in enumerate(best) if rank < k or rows[m] in extra]
        scores = picked[chosen] @ query
        return Nearest([(self.keys[rows[m]], min(max(float(score), -1.0), 1.0))
                        for m, score in zip(chosen, scores, strict=True)],
                       {self.keys[rows[m]]: float(adjusted[m]) for m in chosen}, mean, spread)

    def _ranked_python(self, vector: Sequence[float], now: datetime, k: int,
                       also: Iterable[object], discount: float) -> Nearest:
        moment = now.timestamp()
        live = {key: row for key, expires, (row, _) in
                zip(self.keys, self._expires, self._rows, strict=True) if expires > moment}
        if len(vector) != self.dim or not live:
            return Nearest([], {}, 0.0, 0.0)
        cosines, adjusted = discounted(live, vector, discount)
        values = list(adjusted.values())
        mean = math.fsum(values) / len(values)
        spread = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / len(values))
        wanted = set(also)
        best = sorted(adjusted, key=lambda key: -adjusted[key])
        chosen = [key for n, key in enumerate(best) if n < k or key in wanted]
        return Nearest([(key, cosines[key]) for key in chosen],
                       {key: adjusted[key] for key in chosen}, mean, spread)


def _gram(np: Any, rows: Any) -> Any:
    """Σ u·uᵀ of these float32 rows, in float64, 4,096 rows at a time."""
    total = np.zeros((rows.shape[1], rows.shape[1]), dtype=np.float64)
    for start in range(0, len(rows), 4_096):
        block = rows[start:start + 4_096].astype(np.float64)
        total += block.T @ block
    return total
