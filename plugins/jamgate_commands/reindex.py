"""`jamgate reindex`: give every active memory a vector from the configured embedder.

Records saved before an embedder was installed have no vector, and records embedded by another
model hold vectors that must not be compared with the current ones. Reindexing embeds them in
batches; each batch is stored in one atomic step, so a run that is killed loses at most the
batch in flight and the next run embeds only what is left.
"""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

from jamgate_core.contracts import Embedder, Reindexable
from jamgate_core.errors import ConfigError, JamgateError
from jamgate_core.hookspecs import hookimpl
from jamgate_core.version import install_command

if TYPE_CHECKING:
    from jamgate_core.contracts import Register


class Progress:
    """A one-line progress bar on a stream (a new line per 10 % when it is not a terminal)."""

    def __init__(self, total: int, stream: TextIO, width: int = 30) -> None:
        self.total, self.stream, self.width = total, stream, width
        self.started = time.monotonic()
        self.live = stream.isatty()
        self._last_tenth = -1

    def update(self, done: int) -> None:
        share = done / self.total if self.total else 1.0
        elapsed = time.monotonic() - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (self.total - done) / rate if rate > 0 else 0.0
        filled = int(share * self.width)
        line = (f"reindex [{'#' * filled}{'.' * (self.width - filled)}] {done}/{self.total} "
                f"{share:4.0%} {rate:5.1f}/s ETA {left:4.0f} s")
        if self.live:
            self.stream.write("\r" + line)
        elif int(share * 10) != self._last_tenth or done == self.total:
            self._last_tenth = int(share * 10)
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.live:
            self.stream.write("\n")
            self.stream.flush()


def reindex(store: Reindexable, embedder: Embedder, *, batch: int = 32,
            limit: int | None = None, progress: Progress | None = None) -> dict[str, Any]:
    """Embed the records lacking a vector from `embedder`; a summary of what was done."""
    started = time.monotonic()
    wanted = store.missing_vectors(embedder.model_id, limit if limit is not None else 10**9)
    total = len(wanted)
    if progress is not None:
        progress.total = total
        progress.update(0)
    done = 0
    while done < total:
        records = store.missing_vectors(embedder.model_id, min(batch, total - done))
        if not records:
            break
        vectors = embedder.embed([r.text for r in records], "passage")
        stored = store.set_vectors([(r.scope, r.id, v, embedder.model_id)
                                    for r, v in zip(records, vectors, strict=True)])
        if stored == 0:
            break
        done += stored
        if progress is not None:
            progress.update(done)
    return {"model": embedder.model_id, "total": total, "embedded": done,
            "remaining": total - done, "seconds": round(time.monotonic() - started, 2)}


@hookimpl
def jamgate_register_commands(register: Register) -> None:
    parser = register(
        "reindex", help="embed memories that lack a vector from the configured embedder",
        description="Give every active memory a vector from the configured embedder: those "
                    "saved before it was installed and those embedded by another model. "
                    "Resumable: a killed run loses at most one batch.", func=run_reindex)
    parser.add_argument("--batch", type=int, default=32, metavar="N",
                        help="records embedded and stored per step (default 32)")
    parser.add_argument("--limit", type=int, default=None, metavar="N",
                        help="embed at most N records this run")
    parser.add_argument("--json", action="store_true", help="print a JSON summary")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run_reindex(args: Any) -> int:
    from jamgate_core.app import open_app

    if args.batch < 1:
        raise ConfigError("--batch must be at least 1")
    app = open_app()
    try:
        if app.embedder is None:
            raise ConfigError(
                "no embedder is configured, so there is nothing to reindex with. Install the "
                f"semantic extra ({install_command('semantic')}) or set JAMGATE_EMBEDDER.")
        if not isinstance(app.store, Reindexable):
            raise JamgateError(
                f"the {app.store_name} store cannot store vectors for existing records "
                "(it lacks missing_vectors/set_vectors); nothing was changed.")
        progress = None if args.quiet else Progress(0, sys.stderr)
        summary = reindex(app.store, app.embedder, batch=args.batch, limit=args.limit,
                          progress=progress)
        if progress is not None:
            progress.close()
    finally:
        app.close()
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"Embedded {summary['embedded']} of {summary['total']} memories with "
              f"{summary['model']} in {summary['seconds']} s"
              + (f"; {summary['remaining']} left (run it again)." if summary["remaining"]
                 else "."))
    return 0
