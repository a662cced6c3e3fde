"""Crash safety: ``agari serve`` killed with SIGKILL while entries are being written loses
no committed entry and corrupts nothing.

Loopback only and bounded: three writers post hands to three tables as fast as the server
answers; after a fixed number of acknowledged entries (or a time limit) the server is
killed mid-stream. A second server on the same database must then show, for every table,
a gapless run of entries 1..n that includes every entry the first one acknowledged, a
revision equal to n (written in the same transaction), and a table that still replays;
SQLite's own integrity check must pass.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.webapp import ledger_fixtures as fx

pytestmark = pytest.mark.slow
# The SQLite / PostgreSQL fixtures, shared by the ledger's test modules (pytest_plugins in
# several modules would import the module twice).
db_url, pg_admin_url, pg_url = fx.db_url, fx.pg_admin_url, fx.pg_url

REPO = Path(__file__).resolve().parents[2]
PLAYERS = {"E": "Ayumi", "S": "Bao", "W": "Chloé", "N": "Dmitri"}
#: A hand any riichi ruleset accepts forever: everyone tenpai, the dealer repeats.
ALL_TENPAI = {"result": "draw", "tenpai": ["E", "S", "W", "N"]}
WRITERS = 3
KILL_AFTER_ACKS = 60
MIN_ACKS_EACH = 5
WRITE_SECONDS_MAX = 20.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _request(
    port: int, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, json.loads(data) if data else None
    finally:
        conn.close()


class Server:
    def __init__(self, db_url: str, log: Path) -> None:
        self.port = _free_port()
        env = dict(os.environ, AGARI_LEDGER_DATABASE_URL=db_url, PYTHONUNBUFFERED="1")
        self.log = log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "webapp.cli", "serve", "--port", str(self.port)],
            cwd=REPO,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}; see {log}")
            try:
                if _request(self.port, "GET", "/api/v1/tables")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("the server did not answer within 60 s")

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
        self.log.close()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for s in started:
        s.kill()


def test_sigkill_while_writing_loses_no_committed_entry(
    db_url: str, servers: list[Server], tmp_path: Path
) -> None:
    first = Server(db_url, tmp_path / "server.log")
    servers.append(first)
    tables = []
    for i in range(WRITERS):
        status, body = _request(
            first.port,
            "POST",
            "/api/v1/tables",
            {"ruleset": "m-league", "players": PLAYERS, "title": f"crash {i}"},
        )
        assert status == 201, body
        tables.append((body["id"], body["token"]))

    acked: dict[str, list[int]] = {tid: [] for tid, _ in tables}
    attempted: dict[str, int] = {tid: 0 for tid, _ in tables}
    refused: list[Any] = []
    total = [0]
    lock = threading.Lock()
    stop = threading.Event()

    def writer(table_id: str, token: str) -> None:
        while not stop.is_set():
            attempted[table_id] += 1
            try:
                status, body = _request(
                    first.port, "POST", f"/api/v1/tables/{table_id}/entries", ALL_TENPAI, token
                )
            except (OSError, http.client.HTTPException):
                return  # the server is gone: this write may or may not have committed
            if status != 201:
                refused.append(body)
                return
            acked[table_id].append(body["entries"][-1]["seq"])
            with lock:
                total[0] += 1

    threads = [threading.Thread(target=writer, args=t, daemon=True) for t in tables]
    for t in threads:
        t.start()
    deadline = time.monotonic() + WRITE_SECONDS_MAX
    while (
        time.monotonic() < deadline
        and not refused
        and (total[0] < KILL_AFTER_ACKS or min(len(a) for a in acked.values()) < MIN_ACKS_EACH)
    ):
        time.sleep(0.01)
    first.kill()  # SIGKILL while the writers are still sending
    stop.set()
    for t in threads:
        t.join(timeout=30)
    assert refused == []
    assert min(len(a) for a in acked.values()) >= 1  # every table was written before the kill

    in_flight = sum(attempted[t] - len(acked[t]) for t in acked)
    print(f"acknowledged before SIGKILL: {total[0]}; writes in flight at the kill: {in_flight}")

    second = Server(db_url, tmp_path / "server.log")
    servers.append(second)
    for table_id, _token in tables:
        status, body = _request(second.port, "GET", f"/api/v1/tables/{table_id}")
        assert status == 200
        seqs = [e["seq"] for e in body["entries"]]
        n = len(seqs)
        assert seqs == list(range(1, n + 1)), "entries must be gapless"
        assert acked[table_id] == list(range(1, len(acked[table_id]) + 1))
        # Every acknowledged entry survived; at most the in-flight one was added besides.
        assert len(acked[table_id]) <= n <= attempted[table_id]
        assert all(e["entry"] == ALL_TENPAI for e in body["entries"])
        assert body["revision"] == n, "the revision is written in the entry's transaction"
        assert "error" not in body["scoreboard"], body["scoreboard"]
        assert body["scoreboard"]["honba"] == n  # the replay of every surviving entry
        print(f"table {table_id}: {len(acked[table_id])} acknowledged, {n} stored")
    second.kill()

    # The servers' own output (waitress, Flask, our logging) never shows a token.
    output = (tmp_path / "server.log").read_text(encoding="utf-8", errors="replace")
    assert "serving on" in output.lower()
    for _table_id, token in tables:
        assert token not in output

    if db_url.startswith("sqlite"):
        path = db_url.removeprefix("sqlite:///")
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
