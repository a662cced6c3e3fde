"""Where the ledger lives and how a connection to it is made.

- ``DATABASE_URL`` (or the app's ``LEDGER_DATABASE_URL``) selects any SQLAlchemy URL;
  ``postgres://`` and ``postgresql://`` are read as psycopg 3.
- Otherwise a SQLite file under the user's data directory (platformdirs).

SQLite is opened in WAL mode with ``synchronous=FULL`` so a committed entry survives a
killed process (and a power cut), and every write transaction starts with
``BEGIN IMMEDIATE`` so two writers queue instead of failing half-way. The schema is
brought up to date by Alembic, programmatically, the first time a store is used.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import NoSuchModuleError
from sqlalchemy.orm import Session, sessionmaker

from scoring.errors import RequestError

MIGRATIONS = Path(__file__).resolve().parents[1] / "migrations"
SQLITE_BUSY_TIMEOUT_MS = 10_000


def default_url() -> str:
    """The SQLite file under the user's data directory (created on first use)."""
    from platformdirs import user_data_path

    path = user_data_path("agari", appauthor=False) / "ledger.sqlite3"
    return f"sqlite:///{path}"


def resolve_url(configured: str | None = None) -> URL:
    """The database URL: the configured one, else ``DATABASE_URL``, else the default file."""
    raw = configured or os.environ.get("DATABASE_URL") or default_url()
    try:
        url = make_url(raw)
    except Exception as exc:
        # The message of make_url quotes the URL, which may hold a password: keep it out.
        raise RequestError(
            "the ledger's database URL is not a valid SQLAlchemy URL", code="bad_database_url"
        ) from exc
    if url.drivername in ("postgres", "postgresql"):
        url = url.set(drivername="postgresql+psycopg")
    return url


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # Hand transaction control to SQLAlchemy's "begin" event below (the documented
    # pysqlite recipe): the driver's own implicit BEGIN would be DEFERRED.
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cur.close()


def _sqlite_begin(conn: Any) -> None:
    # A write transaction takes the lock up front: a deferred one that reads first and
    # writes later fails at once (SQLITE_BUSY_SNAPSHOT) if another writer got in between.
    mode = "IMMEDIATE" if conn.get_execution_options().get("ledger_write") else "DEFERRED"
    conn.exec_driver_sql(f"BEGIN {mode}")


def make_engine(url: URL) -> Engine:
    try:
        return _make_engine(url)
    except NoSuchModuleError:
        raise RequestError(
            f"the ledger's database URL names a database Agari cannot use ({url.drivername!r}); "
            "use sqlite:///PATH or postgresql://...",
            code="bad_database_url",
        ) from None
    except ModuleNotFoundError as exc:
        # PostgreSQL's driver is the extra 'postgres' (pip install 'agari[postgres]').
        raise RequestError(
            f"the ledger's database {url.get_backend_name()!r} needs the Python package "
            f"{exc.name!r}, which is not installed (for PostgreSQL: pip install "
            "'agari[postgres]')",
            code="bad_database_url",
        ) from None


def _make_engine(url: URL) -> Engine:
    if url.get_backend_name() == "sqlite":
        if url.database and url.database != ":memory:":
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, pool_pre_ping=True)


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (idempotent, safe to race)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as conn:
        cfg.attributes["connection"] = conn.execution_options(ledger_write=True)
        command.upgrade(cfg, "head")


class LedgerStore:
    """One database: an engine, a session factory, and the schema migrated on first use."""

    def __init__(self, url: str | URL | None = None) -> None:
        self.url = url if isinstance(url, URL) else resolve_url(url)
        self._engine: Engine | None = None
        self._sessions: sessionmaker[Session] | None = None
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()

    @property
    def backend(self) -> str:
        return self.url.get_backend_name()

    def _open(self) -> tuple[Engine, sessionmaker[Session]]:
        with self._lock:
            if self._engine is None or self._sessions is None:
                engine = make_engine(self.url)
                upgrade(engine)
                self._sessions = sessionmaker(engine, expire_on_commit=False)
                self._engine = engine
            return self._engine, self._sessions

    @property
    def engine(self) -> Engine:
        return self._engine if self._engine is not None else self._open()[0]

    @property
    def sessions(self) -> sessionmaker[Session]:
        return self._sessions if self._sessions is not None else self._open()[1]

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A session for reading (no write lock taken on SQLite)."""
        with self.sessions() as session, session.begin():
            yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One transaction: committed as a whole when the block ends, else rolled back.

        On SQLite the writers of this process also queue on a lock: SQLite's own busy
        handler retries by sleeping, which lets one writer starve behind the others."""
        lock = self._write_lock if self.backend == "sqlite" else nullcontext()
        with lock, self.sessions() as session, session.begin():
            session.connection(execution_options={"ledger_write": True})
            yield session

    def dispose(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
