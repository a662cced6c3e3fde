"""Reading and writing tables: every write is one transaction, checked against the token.

The functions take a :class:`~webapp.ledger.db.LedgerStore` and return frozen snapshots,
so nothing outside this module holds a live ORM object or a session. A write that is
refused (no such table, wrong token, stale sequence number, an entry the game replay
rejects) raises an :class:`~scoring.errors.AgariError` and changes nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from scoring.errors import AgariError, RequestError
from webapp.ledger.db import LedgerStore
from webapp.ledger.models import Entry, GameTable, utcnow

SEATS = ("E", "S", "W", "N")
#: 32 random bytes (256 bits): not guessable, and long enough that a fast hash is enough to
#: store it (no password stretching needed for a secret that was never human-chosen).
TOKEN_BYTES = 32
TABLE_ID_BYTES = 9  # 12 URL-safe characters: public, but not enumerable
#: A hanchan is some 10-30 hands; the cap bounds what one table costs to replay on a read.
MAX_ENTRIES = 1000


@dataclass(frozen=True, slots=True)
class EntryRecord:
    seq: int
    data: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class TableRecord:
    id: str
    title: str
    ruleset: Any
    players: dict[str, str]
    revision: int
    created_at: datetime
    updated_at: datetime
    entries: tuple[EntryRecord, ...]

    def with_entry(self, data: dict[str, Any]) -> TableRecord:
        """This table as it would be with one more entry (for validating before writing)."""
        nxt = EntryRecord(seq=len(self.entries) + 1, data=data, created_at=utcnow())
        return TableRecord(
            self.id, self.title, self.ruleset, self.players, self.revision + 1,
            self.created_at, nxt.created_at, (*self.entries, nxt),
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class TableSummary:
    id: str
    title: str
    ruleset: Any
    players: dict[str, str]
    revision: int
    entries: int
    updated_at: datetime


#: Raised inside a write transaction to refuse an entry (e.g. the game replay's AgariError).
Check = Callable[[TableRecord], None]


def _error(cls: type[AgariError], message: str, code: str, status: int) -> AgariError:
    exc = cls(message, code=code)
    exc.http_status = status
    return exc


def new_token() -> str:
    return _url_safe_word(TOKEN_BYTES)


def new_table_id() -> str:
    return _url_safe_word(TABLE_ID_BYTES)


def _url_safe_word(nbytes: int) -> str:
    """A random URL-safe string that does not start with '-' or '_': an id or token starting
    with '-' reads as an option on a command line (``agari table show -x3f...``)."""
    while True:
        word = secrets.token_urlsafe(nbytes)
        if word[0].isalnum():
            return word


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str | None, stored_hash: str) -> bool:
    """Constant-time comparison of a presented token with the stored hash."""
    if not token:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def _validate_players(players: Any) -> dict[str, str]:
    if not isinstance(players, Mapping) or set(players) != set(SEATS):
        raise RequestError(
            f"players must name the four starting seats E S W N, got {players!r}",
            code="bad_players",
        )
    out: dict[str, str] = {}
    for seat in SEATS:
        name = players[seat]
        if not isinstance(name, str) or not name.strip() or len(name) > 60:
            raise RequestError(
                f"player name for seat {seat} must be 1-60 characters, got {name!r}",
                code="bad_players",
            )
        out[seat] = name.strip()
    if len({n.casefold() for n in out.values()}) < 4:
        # The pages, the logs and the overlay name players, not seats: two alike are
        # indistinguishable there.
        raise RequestError(
            f"the four players need four different names, got {list(out.values())!r}",
            code="bad_players",
        )
    return out


def _utc(value: datetime) -> datetime:
    """SQLite keeps no time zone: every time the ledger writes is UTC, so say so."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _snapshot(table: GameTable, entries: list[Entry]) -> TableRecord:
    return TableRecord(
        id=table.id,
        title=table.title,
        ruleset=table.ruleset,
        players=dict(table.players),
        revision=table.revision,
        created_at=_utc(table.created_at),
        updated_at=_utc(table.updated_at),
        entries=tuple(EntryRecord(e.seq, dict(e.data), _utc(e.created_at)) for e in entries),
    )


def _entries(session: Session, table_id: str) -> list[Entry]:
    return list(
        session.scalars(select(Entry).where(Entry.table_id == table_id).order_by(Entry.seq))
    )


def _locked_table(session: Session, table_id: str, token: str | None) -> GameTable:
    """The table row, locked for this transaction (PostgreSQL; SQLite holds the write lock
    already), after checking the token. Missing token: 401; wrong token: 403."""
    table = session.scalars(
        select(GameTable).where(GameTable.id == table_id).with_for_update()
    ).one_or_none()
    return _opened(table, table_id, token)


def _opened(table: GameTable | None, table_id: str, token: str | None) -> GameTable:
    """The table, if it exists (else 404) and the token opens it (missing 401, wrong 403)."""
    if table is None:
        raise _error(RequestError, f"no table {table_id!r}", "table_not_found", 404)
    if not token:
        raise _error(RequestError, "writing to a table needs its token", "token_required", 401)
    if not token_matches(token, table.token_hash):
        # Never echo the presented token: it may be a real one for another table.
        raise _error(RequestError, "the token does not open this table", "bad_token", 403)
    return table


def create_table(
    store: LedgerStore,
    *,
    ruleset: Any,
    players: Any,
    title: str = "",
) -> tuple[TableRecord, str]:
    """Create a table; return it and its write token (shown once, stored only hashed)."""
    players = _validate_players(players)
    if not isinstance(title, str) or len(title) > 200:
        raise RequestError("title must be a string of at most 200 characters", code="bad_title")
    token = new_token()
    now = utcnow()
    table = GameTable(
        id=new_table_id(),
        title=title.strip(),
        ruleset=ruleset,
        players=players,
        token_hash=hash_token(token),
        revision=0,
        created_at=now,
        updated_at=now,
    )
    record = _snapshot(table, [])
    with store.write() as session:
        session.add(table)
    return record, token


def get_table(store: LedgerStore, table_id: str) -> TableRecord:
    with store.read() as session:
        table = session.get(GameTable, table_id)
        if table is None:
            raise _error(RequestError, f"no table {table_id!r}", "table_not_found", 404)
        return _snapshot(table, _entries(session, table_id))


def list_tables(store: LedgerStore, *, limit: int = 50) -> list[TableSummary]:
    """The most recently changed tables first."""
    counts = (
        select(Entry.table_id, func.count(Entry.id).label("n")).group_by(Entry.table_id).subquery()
    )
    stmt = (
        select(GameTable, func.coalesce(counts.c.n, 0))
        .outerjoin(counts, counts.c.table_id == GameTable.id)
        .order_by(GameTable.updated_at.desc(), GameTable.id)
        .limit(limit)
    )
    with store.read() as session:
        return [
            TableSummary(
                t.id, t.title, t.ruleset, dict(t.players), t.revision, n, _utc(t.updated_at)
            )
            for t, n in session.execute(stmt)
        ]


def check_token(store: LedgerStore, table_id: str, token: str | None) -> None:
    """Raise as a write would (404, 401, 403) unless the token opens the table."""
    with store.read() as session:
        _opened(session.get(GameTable, table_id), table_id, token)


def _check_revision(expected: int | None, table: GameTable) -> None:
    if expected is not None and expected != table.revision:
        raise _error(
            RequestError,
            f"the table changed since revision {expected} (it is at {table.revision}): "
            "someone else wrote to it; reload and try again",
            "stale_revision",
            412,
        )


def append_entry(
    store: LedgerStore,
    table_id: str,
    token: str | None,
    data: dict[str, Any],
    *,
    expected_revision: int | None = None,
    check: Check | None = None,
) -> TableRecord:
    """Append one entry in one transaction. ``expected_revision`` (the revision the caller
    last saw) guards against a double submit or two referees writing at once; ``check``
    sees the table with the new entry and raises to refuse it."""
    try:
        with store.write() as session:
            table = _locked_table(session, table_id, token)
            entries = _entries(session, table_id)
            _check_revision(expected_revision, table)
            if len(entries) >= MAX_ENTRIES:
                raise _error(
                    RequestError, f"a table holds at most {MAX_ENTRIES} entries", "table_full", 409
                )
            after = _snapshot(table, entries).with_entry(data)
            if check is not None:
                check(after)
            now = utcnow()
            session.add(Entry(table_id=table_id, seq=len(entries) + 1, data=data, created_at=now))
            table.revision += 1
            table.updated_at = now
    except IntegrityError as exc:  # two writers raced past the lock (should not happen)
        raise _error(
            RequestError, "another entry was written at the same moment; retry", "conflict", 409
        ) from exc
    return get_table(store, table_id)


def undo_last(
    store: LedgerStore,
    table_id: str,
    token: str | None,
    *,
    expected_seq: int | None = None,
    expected_revision: int | None = None,
) -> tuple[TableRecord, EntryRecord]:
    """Delete the last entry (one transaction); return the table and the removed entry.
    ``expected_seq`` is the number of the entry the caller means to remove: undoing
    anything but the last entry is refused (409), so two undo clicks remove one entry."""
    with store.write() as session:
        table = _locked_table(session, table_id, token)
        entries = _entries(session, table_id)
        if not entries:
            raise _error(RequestError, "the table has no entry to undo", "nothing_to_undo", 409)
        last = entries[-1]
        _check_revision(expected_revision, table)
        if expected_seq is not None and expected_seq != last.seq:
            raise _error(
                RequestError,
                f"only the last entry ({last.seq}) can be undone, not {expected_seq}",
                "not_last_entry",
                409,
            )
        removed = EntryRecord(last.seq, dict(last.data), last.created_at)
        session.delete(last)
        table.revision += 1
        table.updated_at = utcnow()
    return get_table(store, table_id), removed
