"""`--workers N` for a command that imports (D-207), apart from `judge_ahead` so that building
the command line does not import the pipeline and multiprocessing (D-230)."""

from __future__ import annotations

import argparse


def add_workers_option(parser: argparse.ArgumentParser) -> None:
    """`--workers N` for a command that imports."""
    parser.add_argument("--workers", type=_count, default=None, metavar="N",
                        help="processes judging the stateless stages ahead (default: one per "
                             "core from 1,000 records without an embedder, else none; 0: judge "
                             "in this process only)")


def _count(value: str) -> int:
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number of workers (0 or more)")
    return int(value)
