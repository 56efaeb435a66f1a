"""Supabase-specific behaviour: OAuth state, the database-enforced invariants, row-level
security, the `jamgate supabase init --print` command, lazy imports, and a benchmark."""

from __future__ import annotations

import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from supabase_stack import Stack

from jamgate_adapters.stores.supabase import SupabaseStore
from jamgate_adapters.stores.supabase.store import SCHEMA_VERSION, terms_of
from jamgate_core.contracts import AuthSecret, AuthState, Preconditions, WritePlan
from jamgate_core.errors import PreconditionFailed, StoreTooNew
from jamgate_core.testing import NOW, insert, make_record

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def store(clean_stack: Stack) -> Iterator[SupabaseStore]:
    opened = SupabaseStore(SupabaseStore.Options(url=clean_stack.url,
                                                 key=clean_stack.service_key))
    opened.open()
    yield opened
    opened.close()


def test_the_auth_state_contract(store: SupabaseStore) -> None:
    assert isinstance(store, AuthState)
    store.oauth_save_client("c1", '{"client_id": "c1"}', 1000.0)
    store.oauth_save_client("c2", '{"client_id": "c2"}', 1000.0)
    assert store.oauth_client("c1") == '{"client_id": "c1"}'
    assert store.oauth_client("nobody") is None
    code = AuthSecret("code", "k-code", "c1", "g1", expires_at=1060.0, data='{"x": 1}')
    store.oauth_put(code)
    store.oauth_put(AuthSecret("access", "k-access", "c1", "g1", expires_at=5000.0))
    store.oauth_put(AuthSecret("refresh", "k-refresh", "c1", "g1", expires_at=9000.0))
    store.oauth_put(AuthSecret("access", "k-other", "c1", "g2", expires_at=5000.0))
    assert store.oauth_get("code", "k-code") == code
    assert store.oauth_get("access", "k-code") is None
    assert store.oauth_take("code", "k-code", 1010.0) == code
    taken = store.oauth_take("code", "k-code", 1020.0)
    assert taken is not None and taken.revoked_at == 1010.0
    assert store.oauth_take("code", "missing", 1020.0) is None
    assert store.oauth_revoke_grant("g1", 1030.0) == 2
    revoked = store.oauth_get("access", "k-access")
    assert revoked is not None and revoked.revoked_at == 1030.0
    other = store.oauth_get("access", "k-other")
    assert other is not None and other.revoked_at is None
    assert store.oauth_prune(1100.0, 50.0) == 2  # the code, and the never-authorized c2
    assert store.oauth_client("c1") is not None and store.oauth_client("c2") is None


def test_a_code_is_taken_once_under_concurrency(store: SupabaseStore) -> None:
    store.oauth_save_client("c", "{}", 1.0)
    store.oauth_put(AuthSecret("code", "once", "c", "g", expires_at=1e12))
    winners: list[bool] = []
    start = threading.Barrier(8)

    def take() -> None:
        start.wait()
        got = store.oauth_take("code", "once", 5.0)
        winners.append(got is not None and got.revoked_at is None)

    threads = [threading.Thread(target=take) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert winners.count(True) == 1


def test_unique_indexes_refuse_a_second_active_record(store: SupabaseStore) -> None:
    first = make_record("Jam drinks green tea", subject="drink")
    store.write(WritePlan(scope="default", now=first.updated_at, insert=first),
                Preconditions(scope="default"))
    for twin in (make_record("Jam drinks green tea", at=1),
                 make_record("Jam drinks coffee", subject="drink", at=2)):
        with pytest.raises(PreconditionFailed):
            store.write(WritePlan(scope="default", now=twin.updated_at, insert=twin),
                        Preconditions(scope="default"))
    assert store.integrity_check() == []


def test_anon_key_sees_nothing_and_writes_nothing(store: SupabaseStore,
                                                  clean_stack: Stack) -> None:
    record = make_record("Jam's locker code is not for anon")
    store.write(WritePlan(scope="default", now=record.updated_at, insert=record),
                Preconditions(scope="default"))
    anon = {"apikey": clean_stack.anon_key, "Authorization": f"Bearer {clean_stack.anon_key}"}
    rest = f"{clean_stack.url}/rest/v1"
    assert httpx.get(f"{rest}/jamgate_memories", headers=anon).status_code in (401, 403)
    called = httpx.post(f"{rest}/rpc/jamgate_list", headers=anon, json={
        "p_scope": "default", "p_status": "all", "p_type": None, "p_now": None,
        "p_at": None, "p_id": None, "p_limit": 5})
    assert called.status_code in (401, 403), called.text


def test_init_prints_the_packaged_schema() -> None:
    done = subprocess.run([sys.executable, "-m", "jamgate_core.cli", "supabase", "init",
                           "--print"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "create unique index if not exists jamgate_active_key" in done.stdout
    assert "enable row level security" in done.stdout


def test_supabase_py_is_imported_lazily() -> None:
    code = ("import sys, jamgate_adapters.stores.supabase, jamgate_core.cli; "
            "print('supabase' in sys.modules, 'postgrest' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.split() == ["False", "False"], done.stderr


def test_a_missing_schema_names_the_command(clean_stack: Stack) -> None:
    from jamgate_core.errors import StoreError
    clean_stack.psql("drop function jamgate_schema_version();")
    try:
        broken = SupabaseStore(SupabaseStore.Options(url=clean_stack.url,
                                                     key=clean_stack.service_key))
        with pytest.raises(StoreError, match="jamgate supabase init --print"):
            broken.open()
    finally:
        clean_stack.psql("create or replace function jamgate_schema_version() returns int "
                         "language sql stable as $$ select value::int from jamgate_meta "
                         "where key = 'schema_version' $$; "
                         "grant execute on function jamgate_schema_version() to service_role;"
                         " notify pgrst, 'reload schema';")
        time.sleep(0.5)


@pytest.mark.slow
def test_benchmark_save_and_recall_through_postgrest(clean_stack: Stack, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Prints p50/p95 of a gated save and a recall through App → supabase-py → PostgREST."""
    from jamgate_core.app import open_app
    from jamgate_core.models import SaveRequest
    from jamgate_core.settings import load_settings

    settings = load_settings(store="supabase", home=tmp_path, embedder="none", store_options={
        "url": clean_stack.url, "key": clean_stack.service_key})
    saves: list[float] = []
    recalls: list[float] = []
    with open_app(settings) as app:
        words = ("amber", "basil", "cobalt", "dune", "ember", "fjord", "garnet", "harbor",
                 "indigo", "juniper", "kelp", "lagoon", "maple", "nectar", "onyx", "pepper",
                 "quartz", "raven", "sage", "tundra", "umber", "violet", "willow", "yarrow",
                 "zephyr")
        stored = 0
        for n in range(150):
            text = (f"Jam keeps the {words[n % 25]} notebook beside the "
                    f"{words[(n * 7 + 3) % 25]} lamp in room {n}")
            started = time.perf_counter()
            stored += app.save(SaveRequest(text=text, type="project")).stored
            saves.append(time.perf_counter() - started)
        assert stored > 0
        for n in range(150):
            started = time.perf_counter()
            app.recall(f"team rota {n % 7}", limit=5)
            recalls.append(time.perf_counter() - started)

    def figures(values: list[float]) -> str:
        ordered = sorted(values)
        p95 = ordered[int(len(ordered) * 0.95) - 1]
        return f"p50 {statistics.median(ordered) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms"

    with capsys.disabled():
        print(f"\nsupabase store through PostgREST: save {figures(saves)} ({stored} stored); "
              f"recall {figures(recalls)} (150 each, stack up in "
              f"{clean_stack.timings['stack']:.2f} s)")


# --- the one folding of text (schema v2) -------------------------------------------------------

SPELLINGS = [  # saved as written, found by the other spelling (tests/stores/test_one_folding.py)
    ("Die Straße ist lang", "STRASSE"),
    ("Ο ΔΡΟΜΟΣ ΕΙΝΑΙ ΣΤΕΝΟΣ", "δρόμος"),
    ("The ﬁle lives in the ofﬁce", "office"),
    ("İstanbul köprüleri", "istanbul"),
    ("東京は時々雨が降ります", "時々"),
]


def test_each_spelling_finds_the_other(store: SupabaseStore) -> None:
    for n, (text, query) in enumerate(SPELLINGS):
        record = make_record(text, at=n, scope=f"spelling-{n}")
        insert(store, record)
        hits = store.search(record.scope, query, limit=3, type=None, now=NOW)
        assert [r.id for r, _ in hits] == [record.id], (text, query)


def test_a_v1_database_is_refolded_on_open(clean_stack: Stack) -> None:
    options = SupabaseStore.Options(url=clean_stack.url, key=clean_stack.service_key)
    first = SupabaseStore(options)
    first.open()
    records = [make_record(f"Die Straße Nummer {n}", at=n) for n in range(3)]
    insert(first, *records)
    first.close()
    # as v1 left them: terms folded some other way (here: none a query finds)
    clean_stack.psql("update jamgate_memories set terms = 'stale'; "
                     "update jamgate_meta set value = '1' where key = 'schema_version';")
    reopened = SupabaseStore(options)
    reopened.open()
    try:
        assert clean_stack.psql("select value from jamgate_meta where key = 'schema_version'"
                                ).strip() == str(SCHEMA_VERSION) == "2"
        stored = clean_stack.psql("select text || '|' || terms from jamgate_memories")
        assert sorted(stored.split("\n")[:-1]) == sorted(
            f"{r.text}|{terms_of(r.text, r.subject)}" for r in records)
        hits = reopened.search("default", "strasse", limit=5, type=None, now=NOW)
        assert {r.id for r, _ in hits} == {r.id for r in records}
    finally:
        reopened.close()


def test_a_newer_schema_is_refused(clean_stack: Stack) -> None:
    clean_stack.psql("update jamgate_meta set value = '3' where key = 'schema_version';")
    try:
        with pytest.raises(StoreTooNew, match="schema v3"):
            SupabaseStore(SupabaseStore.Options(url=clean_stack.url,
                                                key=clean_stack.service_key)).open()
    finally:
        clean_stack.psql("update jamgate_meta set value = '2' where key = 'schema_version';")
