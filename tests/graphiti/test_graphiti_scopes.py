"""Scopes map to Graphiti group ids injectively and reversibly, and stay apart on FalkorDB."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jamgate_adapters.stores.graphiti import GraphitiStore
from jamgate_adapters.stores.graphiti.groups import decode_group, encode_scope
from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.testing import NOW, make_record

PREFIX = "jamgate_"
ADVERSARIAL = [
    "amir/greek", "amir_2fgreek", "amir_2Fgreek", "amir-greek", "amir greek", "AMIR/greek",
    "Amir/Greek", "amir//greek", "amir/greek/", "", "_", "__", "_5f", "-", "a-b", "a_2db",
    "default", "..", "αβγ/日本", "日本/αβγ", "café", "cafe\u0301", "x\x00y", "🦜", "schema",
    ":lock:", "lock", "a" * 200,
]


def test_adversarial_scopes_get_distinct_valid_group_ids() -> None:
    from graphiti_core.helpers import validate_group_id

    groups = [encode_scope(scope, PREFIX) for scope in ADVERSARIAL]
    assert len(set(groups)) == len(ADVERSARIAL)
    for scope, group in zip(ADVERSARIAL, groups, strict=True):
        assert validate_group_id(group)
        assert set(group) <= set("abcdefghijklmnopqrstuvwxyz0123456789_")
        assert decode_group(group, PREFIX) == scope
    assert encode_scope("amir/greek", PREFIX) == "jamgate_amir_2fgreek"


@given(st.text(), st.text())
def test_encoding_is_injective_and_reversible(a: str, b: str) -> None:
    ga, gb = encode_scope(a, PREFIX), encode_scope(b, PREFIX)
    assert decode_group(ga, PREFIX) == a
    assert (ga == gb) == (a == b)


@pytest.mark.parametrize("group", ["other_amir", "jamgate_amir_2", "jamgate_amir_zz",
                                   "jamgate_A", "jamgate_amir_61", "jamgate_amir_c3"])
def test_foreign_or_non_canonical_groups_are_not_ours(group: str) -> None:
    assert decode_group(group, PREFIX) is None


@pytest.fixture
def store(falkor: Any, group_prefix: str, tmp_path: Path) -> Iterator[GraphitiStore]:
    opened = GraphitiStore(GraphitiStore.Options(**falkor.options(group_prefix=group_prefix)),
                           tmp_path)
    opened.open()
    yield opened
    opened.close()


def test_look_alike_scopes_never_collide(store: GraphitiStore) -> None:
    scopes = ["amir/greek", "amir_2fgreek", "amir-greek", "AMIR/greek", "amir greek"]
    records = {s: make_record("Jam studies Greek verbs", scope=s, subject="greek",
                              at=n, embedding=[1.0, 0.0]) for n, s in enumerate(scopes)}
    for scope, record in records.items():
        store.write(WritePlan(scope=scope, now=NOW, insert=record),
                    Preconditions(scope=scope, by_key={record.key: frozenset()},
                                  by_subject={"greek": frozenset()}))
    for scope, record in records.items():
        assert [r.id for r in store.by_subject(scope, "greek")] == [record.id]
        assert [r.id for r, _ in store.search(scope, "Greek verbs", limit=10, type=None,
                                              now=NOW)] == [record.id]
        assert [r.id for r, _ in store.nearest(scope, [1.0, 0.0], limit=10,
                                               now=NOW)] == [record.id]
    groups = {gid for gid, _ in store._groups()}
    assert {store.group(s) for s in scopes} <= groups
    assert store.integrity_check() == []
