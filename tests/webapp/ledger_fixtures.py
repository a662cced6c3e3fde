"""Fixtures for the table ledger's tests: a store on SQLite and on a real PostgreSQL.

PostgreSQL is Debian's ``postgresql`` package, started here on a free loopback port with a
throw-away data directory (``fsync=off``: the data dies with the test run anyway). If the
binaries are missing and we are root (CI on a fresh machine), ``apt-get install -y
postgresql`` installs them; as another user the PostgreSQL tests are skipped with the
reason. ``AGARI_TEST_DATABASE_URL`` points the tests at an existing server instead.
Each test gets a database of its own, so tests can run in any order and in parallel.

Test modules bind these fixtures to module names (``db_url = fx.db_url``).
"""

from __future__ import annotations

import atexit
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from webapp.ledger.db import LedgerStore

PG_STARTUP_TIMEOUT_S = 60


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _install_postgres() -> None:
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    # pytest-xdist workers may get here together: the second waits for dpkg's lock.
    wait = ["-o", "DPkg::Lock::Timeout=600"]
    subprocess.run(["apt-get", *wait, "update", "-q"], check=False, env=env, timeout=600)
    subprocess.run(
        ["apt-get", *wait, "install", "-y", "-q", "--no-install-recommends", "postgresql"],
        check=True,
        env=env,
        timeout=900,
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """A private PostgreSQL cluster: initdb, pg_ctl start, and a fresh database on demand."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="agari-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.as_postgres = os.geteuid() == 0  # PostgreSQL refuses to run as root
        if self.as_postgres:
            shutil.chown(self.root, "postgres")

    def _run(self, *args: str) -> None:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self.as_postgres:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=PG_STARTUP_TIMEOUT_S)

    def start(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "agari", "--auth=trust", "-E", "UTF8")
        opts = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c full_page_writes=off -c synchronous_commit=off"
        )
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-o", opts,
            "-w", "-t", str(PG_STARTUP_TIMEOUT_S), "start",
        )  # fmt: skip

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://agari@127.0.0.1:{self.port}/{database}"


_SERVER: dict[str, str] = {}


def _admin_url() -> str:
    """One server per test process, whichever module asks first; stopped at exit (each
    module binds these fixtures under its own name, so a session fixture alone would start
    one server per module)."""
    external = os.environ.get("AGARI_TEST_DATABASE_URL")
    if external:
        return external
    if "skip" in _SERVER:
        pytest.skip(_SERVER["skip"])
    if "url" not in _SERVER:
        bindir = _pg_bin()
        if bindir is None:
            if os.geteuid() != 0 or not shutil.which("apt-get"):
                _SERVER["skip"] = "PostgreSQL is not installed and we are not root to apt-get it"
                pytest.skip(_SERVER["skip"])
            _install_postgres()
            bindir = _pg_bin()
            if bindir is None:
                pytest.fail("apt-get install postgresql did not provide initdb")
        server = PgServer(bindir)
        server.start()
        atexit.register(server.stop)
        _SERVER["url"] = server.url()
    return _SERVER["url"]


@pytest.fixture(scope="session")
def pg_admin_url() -> str:
    """URL of a running PostgreSQL server's maintenance database."""
    return _admin_url()


@pytest.fixture
def pg_url(pg_admin_url: str) -> Iterator[str]:
    """URL of a brand-new, empty database on the test server (dropped afterwards)."""
    import psycopg
    from sqlalchemy.engine import make_url

    admin = make_url(pg_admin_url)
    name = f"agari_{uuid.uuid4().hex[:12]}"
    conninfo = admin.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield admin.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(conninfo, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The same test on SQLite (a file, WAL) and on a real PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def store(db_url: str) -> Iterator[LedgerStore]:
    s = LedgerStore(db_url)
    yield s
    s.dispose()


def ledger_app(url: str) -> Iterator[Any]:
    """The web app on the ledger at ``url``, its store closed afterwards (for a fixture to
    yield from)."""
    from webapp import create_app

    app = create_app({"TESTING": True, "LEDGER_DATABASE_URL": url})
    yield app
    store = app.extensions.get("agari.ledger")
    if store is not None:
        store.dispose()
