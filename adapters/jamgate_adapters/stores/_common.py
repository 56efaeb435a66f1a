"""Deprecated: the helpers moved to `jamgate_adapters.stores.kit`, split by job; this module
re-exports the names it promised for one release and will then be removed.

Import from the kit instead: cursors, `listed`, `newest_first`, `check_list_args`,
`check_preconditions` from `kit.paging`; `index_terms`, `query_terms`, `lexical_score`,
`cjk_grams`, `document_tokens`, `bm25`, `match_terms` from `kit.lexical`; `cosine`, `blend`,
`fuse`, `discounted`, `QueryHints`, `diversify`, `rank_records`, `ranked` from `kit.ranking`;
`VectorMatrix`, `Nearest` from `kit.vectors`; `record_columns`, `record_from_columns` from
`kit.columns`; `invariant_problems` from `kit.invariants`. The text readers (`fold`, `is_cjk`,
`script_runs`, `STOPWORDS`) are `jamgate_core.text`'s, shared with the gate's stages; `words`
(the folded runs of a text) is `runs(fold(text))` there.
"""

from __future__ import annotations

from jamgate_adapters.stores.kit.columns import Columns, record_columns, record_from_columns
from jamgate_adapters.stores.kit.invariants import invariant_problems
from jamgate_adapters.stores.kit.lexical import (
    PREFIX_MIN,
    QueryTerm,
    bm25,
    cjk_grams,
    document_tokens,
    edit_distance,
    index_terms,
    lexical_score,
    match_terms,
    query_terms,
    stem,
    subject_text,
    typo_limit,
    typo_matches,
)
from jamgate_adapters.stores.kit.paging import (
    LIST_STATUSES,
    check_list_args,
    check_preconditions,
    decode_cursor,
    encode_cursor,
    listed,
    newest_first,
)
from jamgate_adapters.stores.kit.ranking import (
    HUB_DISCOUNT,
    LEXICAL_FUSION,
    LEXICAL_WEIGHT,
    NEAR_IDENTICAL,
    SEMANTIC_FLOOR,
    SEMANTIC_MIN,
    SEMANTIC_WEIGHT,
    SEMANTIC_Z,
    TEMPORAL_BONUS,
    TYPE_BONUS,
    QueryHints,
    blend,
    cosine,
    discounted,
    diversify,
    fuse,
    named_types,
    norm,
    rank_records,
    ranked,
    zscores,
)
from jamgate_adapters.stores.kit.vectors import Nearest, VectorMatrix
from jamgate_core.text import STOPWORDS, fold, is_cjk, runs, script_runs


def words(text: str) -> list[str]:
    """Deprecated: the folded runs of letters and digits of `text`, i.e.
    `jamgate_core.text.runs(jamgate_core.text.fold(text))`."""
    return runs(fold(text))


__all__ = [
    "HUB_DISCOUNT",
    "LEXICAL_FUSION",
    "LEXICAL_WEIGHT",
    "LIST_STATUSES",
    "NEAR_IDENTICAL",
    "PREFIX_MIN",
    "SEMANTIC_FLOOR",
    "SEMANTIC_MIN",
    "SEMANTIC_WEIGHT",
    "SEMANTIC_Z",
    "STOPWORDS",
    "TEMPORAL_BONUS",
    "TYPE_BONUS",
    "Columns",
    "Nearest",
    "QueryHints",
    "QueryTerm",
    "VectorMatrix",
    "blend",
    "bm25",
    "check_list_args",
    "check_preconditions",
    "cjk_grams",
    "cosine",
    "decode_cursor",
    "discounted",
    "diversify",
    "document_tokens",
    "edit_distance",
    "encode_cursor",
    "fold",
    "fuse",
    "index_terms",
    "invariant_problems",
    "is_cjk",
    "lexical_score",
    "listed",
    "match_terms",
    "named_types",
    "newest_first",
    "norm",
    "query_terms",
    "rank_records",
    "ranked",
    "record_columns",
    "record_from_columns",
    "script_runs",
    "stem",
    "subject_text",
    "typo_limit",
    "typo_matches",
    "words",
    "zscores",
]
