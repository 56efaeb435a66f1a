"""The stores' kit: it reads text only through `jamgate_core.text`, and the deprecated
`stores._common` still answers, for one release, every name it promised."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

from jamgate_adapters.stores import _common, kit
from jamgate_core import text

KIT_MODULES = sorted(m.name for m in pkgutil.iter_modules(kit.__path__))
TEXT_READERS = ("fold", "runs", "words", "is_cjk", "script_runs", "STOPWORDS")
# Every public name of the old `_common` (its docstring promised them to other adapters).
_PROMISED = (
    "Columns HUB_DISCOUNT LEXICAL_FUSION LEXICAL_WEIGHT LIST_STATUSES NEAR_IDENTICAL Nearest "
    "PREFIX_MIN QueryHints QueryTerm SEMANTIC_FLOOR SEMANTIC_MIN SEMANTIC_WEIGHT SEMANTIC_Z "
    "STOPWORDS TEMPORAL_BONUS TYPE_BONUS VectorMatrix blend bm25 check_list_args "
    "check_preconditions cjk_grams cosine decode_cursor discounted diversify document_tokens "
    "edit_distance encode_cursor fold fuse index_terms invariant_problems is_cjk lexical_score "
    "listed match_terms named_types newest_first norm query_terms rank_records ranked "
    "record_columns record_from_columns script_runs stem subject_text typo_limit typo_matches "
    "words zscores"
)
PROMISED = _PROMISED.split()


@pytest.mark.parametrize("name", KIT_MODULES)
def test_the_kit_defines_no_text_reader_of_its_own(name: str) -> None:
    module = importlib.import_module(f"jamgate_adapters.stores.kit.{name}")
    for reader in TEXT_READERS:
        found = getattr(module, reader, None)
        assert found is None or found is getattr(text, reader), (name, reader)


def test_the_old_common_module_re_exports_the_kit() -> None:
    assert (_common.__doc__ or "").startswith("Deprecated")
    assert sorted(_common.__all__) == sorted(PROMISED)
    for name in PROMISED:
        assert getattr(_common, name) is not None, name
    for reader in ("fold", "is_cjk", "script_runs", "STOPWORDS"):
        assert getattr(_common, reader) is getattr(text, reader)
    sample = "Die Straße, ﬁle 東京々 İstanbul"
    assert _common.words(sample) == text.runs(text.fold(sample))


def test_typo_matching_counts_a_swap_as_one_edit_and_stops_at_the_limit() -> None:
    from jamgate_adapters.stores.kit.lexical import edit_distance, typo_matches

    assert edit_distance("recieve", "receive", 1) == 1  # adjacent transposition
    assert edit_distance("kitten", "sitting", 2) == 3  # over the limit: limit + 1
    assert edit_distance("athens", "athens", 1) == 0
    vocabulary = ["athens", "athena", "atlanta", "bathens", "athenss", "ahtens"]
    assert typo_matches("athnes", vocabulary) == ["athens"]
    assert typo_matches("athenz", iter(vocabulary)) == ["athena", "athens"]  # closest, then a-z
    assert typo_matches("2023", ["2024"]) == []  # numbers take no typos
