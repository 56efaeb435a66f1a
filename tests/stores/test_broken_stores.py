"""The conformance suite catches broken stores: each class below breaks one rule, and running
the suite against it (in a pytester session) fails the test that guards that rule."""

from __future__ import annotations

from datetime import datetime

import pytest

from jamgate_adapters.stores.kit.lexical import lexical_score, query_terms
from jamgate_adapters.stores.kit.paging import (
    check_preconditions,
    decode_cursor,
    encode_cursor,
    listed,
    newest_first,
)
from jamgate_adapters.stores.kit.ranking import ranked
from jamgate_adapters.stores.memory import MemoryStore
from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.models import MemoryRecord, Page

pytest_plugins = ["pytester"]


class ScopeBlindSubjects(MemoryStore):
    """by_subject ignores the scope."""

    def by_subject(self, scope: str, subject: str) -> list[MemoryRecord]:
        with self._lock:
            return [r for r in self._records.values()
                    if r.status == "active" and r.subject == subject]


class SevenCharPrefix(MemoryStore):
    """resolve_id accepts a 7-character prefix."""

    def resolve_id(self, scope: str, needle: str) -> list[str]:
        ids = [r.id for r in self._in_scope(scope)]
        if needle in ids:
            return [needle]
        return sorted(i for i in ids if len(needle) >= 7 and i.startswith(needle))


class SearchesHistory(MemoryStore):
    """search returns superseded records too."""

    def search(self, scope: str, query: str, *, limit: int, type: str | None, now: datetime,
               vector: list[float] | None = None) -> list[tuple[MemoryRecord, float]]:
        terms = query_terms(query)
        pool = [r for r in self._in_scope(scope) if not r.is_expired(now)]
        if not query.strip():
            return [(r, 1.0) for r in newest_first(pool)[:limit]]
        hits = [(r, lexical_score(terms, r)) for r in pool]
        return ranked(h for h in hits if h[1] > 0)[:limit]


class OffsetPagination(MemoryStore):
    """list pages by offset, so rows inserted between pages shift the older ones."""

    def list(self, scope: str, *, status: str, type: str | None, limit: int,
             cursor: str | None, now: datetime) -> Page:
        rows = [r for r in newest_first(self._in_scope(scope)) if listed(r, status, type, now)]
        start = 0
        if cursor is not None:
            _, offset = decode_cursor(cursor)
            start = int(offset)
        page = rows[start:start + limit]
        more = len(rows) > start + limit
        return Page(records=page, next_cursor=encode_cursor(page[-1].created_at,
                                                            str(start + limit)) if more else None)


class InsertsBeforeChecking(MemoryStore):
    """write stores the new record first and checks the preconditions afterwards."""

    def write(self, plan: WritePlan, preconditions: Preconditions) -> None:
        with self._lock:
            if plan.insert is not None:
                self._records[plan.insert.id] = plan.insert
            check_preconditions(preconditions, self.by_text_key, self.by_subject)
            super().write(WritePlan(scope=plan.scope, now=plan.now, retire=plan.retire,
                                    upgrade_source=plan.upgrade_source), preconditions)


SUITE = """
import sys
import pytest
from jamgate_core.testing import StoreConformance

broken = sys.modules[{module!r}]

class TestBroken(StoreConformance):
    @pytest.fixture
    def make_store(self):
        cls = getattr(broken, {name!r})
        return lambda home: cls(cls.Options(), home)
"""


def run_suite(pytester: pytest.Pytester, name: str) -> tuple[set[str], int]:
    """The names of the suite's failing tests against store class `name`, and the pass count."""
    pytester.makepyfile(test_suite=SUITE.format(module=__name__, name=name))
    result = pytester.runpytest_inprocess("-p", "jamgate_core.testing", "-q", "-p",
                                          "no:cacheprovider")
    failed = {report.nodeid.split("::")[-1].split("[")[0]
              for report in result.reprec.getreports("pytest_runtest_logreport")  # type: ignore[attr-defined]
              if report.failed}
    return failed, result.parseoutcomes().get("passed", 0)


def test_the_honest_store_passes(pytester: pytest.Pytester) -> None:
    failed, passed = run_suite(pytester, "MemoryStore")
    assert failed == set()
    assert passed > 30


@pytest.mark.parametrize(("name", "caught_by"), [
    ("ScopeBlindSubjects", "test_scope_isolation"),
    ("SevenCharPrefix", "test_resolve_id_prefix_lengths"),
    ("SearchesHistory", "test_search_excludes_superseded_and_expired"),
    ("OffsetPagination", "test_pagination_concurrent_inserts"),
    ("InsertsBeforeChecking", "test_stale_subject_precondition_changes_nothing"),
])
def test_the_suite_catches(pytester: pytest.Pytester, name: str, caught_by: str) -> None:
    failed, passed = run_suite(pytester, name)
    assert caught_by in failed
    assert passed > 20, "the break should be caught by specific tests, not by everything"
