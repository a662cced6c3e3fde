"""The ledger's storage on SQLite and on a real PostgreSQL: tables, entries, undo, tokens.

These tests need no game logic: they drive the repository with opaque entries.
"""

from __future__ import annotations

import sqlite3
import sys
import threading

import pytest
from sqlalchemy import inspect

from scoring.errors import AgariError
from tests.webapp import ledger_fixtures as fx
from webapp.ledger import repository as repo
from webapp.ledger.db import LedgerStore, resolve_url
from webapp.ledger.repository import TableRecord

# The SQLite / PostgreSQL fixtures, shared by the ledger's test modules (pytest_plugins in
# several modules would import the module twice).
db_url, pg_admin_url, pg_url = fx.db_url, fx.pg_admin_url, fx.pg_url
store = fx.store

PLAYERS = {"E": "Ayumi", "S": "Bao", "W": "Chloé", "N": "Dmitri"}


def _new(store: LedgerStore) -> tuple[TableRecord, str]:
    return repo.create_table(store, ruleset="m-league", players=PLAYERS, title="Final")


def test_migrations_create_the_schema(store: LedgerStore) -> None:
    names = set(inspect(store.engine).get_table_names())
    assert {"ledger_tables", "ledger_entries", "alembic_version"} <= names
    # A second store on the same database finds the schema up to date and migrates nothing.
    again = LedgerStore(store.url)
    assert set(inspect(again.engine).get_table_names()) == names
    again.dispose()


def test_the_migrations_match_the_models(store: LedgerStore) -> None:
    """Alembic's autogenerate finds nothing to add: the schema the migrations build is the
    one the models declare (on SQLite and on PostgreSQL alike)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from webapp.ledger.models import Base

    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []


def test_create_and_read_back(store: LedgerStore) -> None:
    table, token = _new(store)
    got = repo.get_table(store, table.id)
    assert got.players == PLAYERS
    assert got.ruleset == "m-league"
    assert got.title == "Final"
    assert got.entries == ()
    assert got.revision == 0
    assert got.created_at.utcoffset() is not None  # UTC on SQLite too, which keeps no zone
    assert len(token) >= 43  # 32 random bytes, URL-safe base64


def test_entries_append_in_order_and_undo_removes_only_the_last(store: LedgerStore) -> None:
    table, token = _new(store)
    for i in range(3):
        repo.append_entry(store, table.id, token, {"kind": "test", "n": i})
    got = repo.get_table(store, table.id)
    assert [(e.seq, e.data["n"]) for e in got.entries] == [(1, 0), (2, 1), (3, 2)]
    assert got.revision == 3

    after, removed = repo.undo_last(store, table.id, token, expected_seq=3)
    assert removed.seq == 3 and removed.data == {"kind": "test", "n": 2}
    assert [e.seq for e in after.entries] == [1, 2]
    # A second click on the same "undo entry 3" button removes nothing more.
    with pytest.raises(AgariError) as info:
        repo.undo_last(store, table.id, token, expected_seq=3)
    assert info.value.code == "not_last_entry"
    assert [e.seq for e in repo.get_table(store, table.id).entries] == [1, 2]
    # The next entry takes the freed number: the sequence has no gaps.
    repo.append_entry(store, table.id, token, {"kind": "test", "n": 9})
    assert [e.seq for e in repo.get_table(store, table.id).entries] == [1, 2, 3]


def test_undo_on_an_empty_table_is_refused(store: LedgerStore) -> None:
    table, token = _new(store)
    with pytest.raises(AgariError) as info:
        repo.undo_last(store, table.id, token)
    assert info.value.code == "nothing_to_undo"


@pytest.mark.parametrize(
    ("token", "code", "status"),
    [
        pytest.param(None, "token_required", 401, id="no_token"),
        pytest.param("", "token_required", 401, id="empty_token"),
        pytest.param("x" * 43, "bad_token", 403, id="wrong_token"),
    ],
)
def test_writes_without_the_token_change_nothing(
    store: LedgerStore, token: str | None, code: str, status: int
) -> None:
    table, good = _new(store)
    repo.append_entry(store, table.id, good, {"kind": "test"})
    with pytest.raises(AgariError) as info:
        repo.append_entry(store, table.id, token, {"kind": "evil"})
    assert (info.value.code, info.value.http_status) == (code, status)
    with pytest.raises(AgariError) as info:
        repo.undo_last(store, table.id, token)
    assert info.value.code == code
    after = repo.get_table(store, table.id)
    assert [e.data for e in after.entries] == [{"kind": "test"}]
    assert after.revision == 1


def test_one_tables_token_does_not_open_another(store: LedgerStore) -> None:
    a, token_a = _new(store)
    b, _token_b = _new(store)
    with pytest.raises(AgariError) as info:
        repo.append_entry(store, b.id, token_a, {"kind": "test"})
    assert info.value.code == "bad_token"
    repo.append_entry(store, a.id, token_a, {"kind": "test"})


def test_tokens_are_random_and_only_their_hash_is_stored(store: LedgerStore) -> None:
    tokens = {repo.new_token() for _ in range(200)}
    assert len(tokens) == 200
    _table, token = _new(store)
    with store.engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT * FROM ledger_tables").all()
    dump = repr(rows)
    assert token not in dump
    assert repo.hash_token(token) in dump


def test_a_refused_check_writes_nothing(store: LedgerStore) -> None:
    table, token = _new(store)

    def refuse(after: TableRecord) -> None:
        assert after.entries[-1].data == {"kind": "bad"}  # the check sees the new entry
        raise AgariError("illegal hand", code="illegal_hand")

    with pytest.raises(AgariError):
        repo.append_entry(store, table.id, token, {"kind": "bad"}, check=refuse)
    got = repo.get_table(store, table.id)
    assert got.entries == () and got.revision == 0


def test_stale_revision_is_refused(store: LedgerStore) -> None:
    table, token = _new(store)
    repo.append_entry(store, table.id, token, {"kind": "test"}, expected_revision=0)
    with pytest.raises(AgariError) as info:
        repo.append_entry(store, table.id, token, {"kind": "test"}, expected_revision=0)
    assert (info.value.code, info.value.http_status) == ("stale_revision", 412)
    assert len(repo.get_table(store, table.id).entries) == 1


def test_unknown_table_and_bad_players(store: LedgerStore) -> None:
    with pytest.raises(AgariError) as info:
        repo.get_table(store, "nope")
    assert (info.value.code, info.value.http_status) == ("table_not_found", 404)
    for players in ({"E": "a", "S": "b", "W": "c"}, {**PLAYERS, "N": ""}, ["a", "b", "c", "d"]):
        with pytest.raises(AgariError) as info:
            repo.create_table(store, ruleset="m-league", players=players)
        assert info.value.code == "bad_players"
    assert repo.list_tables(store) == []


def test_concurrent_writers_get_distinct_gapless_numbers(store: LedgerStore) -> None:
    """Four writers on two stores (two engines, as two app servers would have) append to
    one table at once: every entry gets its own number, none is lost."""
    table, token = _new(store)
    other = LedgerStore(store.url)
    errors: list[BaseException] = []

    def writer(w: int) -> None:
        via = store if w % 2 else other
        try:
            for i in range(10):
                repo.append_entry(via, table.id, token, {"kind": "test", "w": w, "i": i})
        except BaseException as exc:  # reported below, with the failing thread's error
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    other.dispose()
    assert errors == []
    got = repo.get_table(store, table.id)
    assert [e.seq for e in got.entries] == list(range(1, 41))
    assert got.revision == 40
    for w in range(4):  # each writer's own entries kept their order
        assert [e.data["i"] for e in got.entries if e.data["w"] == w] == list(range(10))


def test_list_tables_counts_entries(store: LedgerStore) -> None:
    a, token = _new(store)
    _new(store)
    repo.append_entry(store, a.id, token, {"kind": "test"})
    listed = {t.id: t.entries for t in repo.list_tables(store)}
    assert listed[a.id] == 1 and sorted(listed.values()) == [0, 1]


def test_sqlite_file_is_in_wal_mode(tmp_path: object) -> None:
    path = f"{tmp_path}/w.sqlite3"
    s = LedgerStore(f"sqlite:///{path}")
    _new(s)
    s.dispose()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_url_resolution(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgres://u@db.example/agari")
    assert resolve_url().drivername == "postgresql+psycopg"
    assert resolve_url("sqlite:////x/y.db").get_backend_name() == "sqlite"
    monkeypatch.delenv("DATABASE_URL")
    default = resolve_url()
    assert default.get_backend_name() == "sqlite" and default.database.endswith("ledger.sqlite3")
    with pytest.raises(AgariError) as info:
        resolve_url("::not a url::secretpw")
    assert "secretpw" not in info.value.message


def test_an_unusable_database_url_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # Both were tracebacks (NoSuchModuleError, ModuleNotFoundError) from agari table/serve.
    with pytest.raises(AgariError) as info:
        LedgerStore("bogus://host/agari").engine  # noqa: B018 (opening is the test)
    assert info.value.code == "bad_database_url"
    monkeypatch.setitem(sys.modules, "psycopg", None)  # PostgreSQL's driver not installed
    with pytest.raises(AgariError) as info:
        LedgerStore("postgresql://u:secretpw@db.example/agari").engine  # noqa: B018
    assert info.value.code == "bad_database_url"
    assert "agari[postgres]" in info.value.message and "secretpw" not in info.value.message


def test_a_table_is_capped(store: LedgerStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(repo, "MAX_ENTRIES", 2)
    table, token = _new(store)
    for _ in range(2):
        repo.append_entry(store, table.id, token, {"kind": "test"})
    with pytest.raises(AgariError) as info:
        repo.append_entry(store, table.id, token, {"kind": "test"})
    assert info.value.code == "table_full"
    assert len(repo.get_table(store, table.id).entries) == 2
