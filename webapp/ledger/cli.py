"""``agari table``: create, list, show and export ledger tables from the command line.

Imported by :func:`webapp.cli.build_parser`, so only argparse is imported at the top; the
database layer loads when a command runs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from scoring.errors import RequestError

EXIT_OK = 0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--database",
        metavar="URL",
        help="SQLAlchemy URL (default: $AGARI_LEDGER_DATABASE_URL, $DATABASE_URL, else the "
        "SQLite file in the user data directory)",
    )
    sub = p.add_subparsers(dest="table_action", metavar="ACTION")
    c = sub.add_parser("create", help="create a table; prints its id and its write token")
    c.add_argument("--ruleset", required=True)
    c.add_argument("--players", required=True, help="four names, E,S,W,N, comma-separated")
    c.add_argument("--title", default="")
    c.add_argument("--json", action="store_true")
    s = sub.add_parser("list", help="the most recently changed tables")
    s.add_argument("--json", action="store_true")
    s = sub.add_parser("show", help="a table's scoreboard")
    s.add_argument("id")
    s.add_argument("--json", action="store_true")
    e = sub.add_parser("export", help="the whole game as JSON (default) or a Tenhou-style log")
    e.add_argument("id")
    e.add_argument("--format", choices=["json", "log", "tenhou"], default="json")
    e.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")


def _dump(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=2, default=str)


def run(args: argparse.Namespace) -> int:
    from webapp.ledger import repository as repo
    from webapp.ledger.db import LedgerStore
    from webapp.ledger.state import public_view, scoreboard_text
    from webapp.ledger.tenhou_log import export_game

    action = getattr(args, "table_action", None)
    if action is None:
        raise RequestError("say what to do: agari table create|list|show|export", code="usage")
    # The same database as `agari serve` sees: its AGARI_ variable, then DATABASE_URL.
    store = LedgerStore(args.database or os.environ.get("AGARI_LEDGER_DATABASE_URL"))
    try:
        if action == "create":
            from scoring.ruleset import resolve_ruleset

            names = [n.strip() for n in args.players.split(",")]
            if len(names) != 4:
                raise RequestError("--players needs four names: E,S,W,N", code="bad_players")
            resolve_ruleset(args.ruleset)
            table, token = repo.create_table(
                store, ruleset=args.ruleset, players=dict(zip(repo.SEATS, names, strict=True)),
                title=args.title,
            )  # fmt: skip
            if args.json:
                print(_dump({"id": table.id, "token": token}))
            else:
                print(f"table {table.id} created")
                print(f"write token (shown once, keep it secret): {token}")
        elif action == "list":
            rows = repo.list_tables(store)
            if args.json:
                print(_dump([{"id": t.id, "title": t.title, "entries": t.entries} for t in rows]))
            for t in rows if not args.json else []:
                players = ", ".join(t.players[s] for s in repo.SEATS)
                print(f"{t.id}  {t.entries:3d} hands  {t.title or '-'}  ({players})")
        elif action == "show":
            table = repo.get_table(store, args.id)
            print(_dump(public_view(table)) if args.json else scoreboard_text(table))
        else:
            doc = export_game(repo.get_table(store, args.id))
            text = {"json": _dump(doc), "log": doc["log"], "tenhou": _dump(doc["tenhou"])}
            out = text[args.format]
            if args.output:
                with open(args.output, "w", encoding="utf-8") as fh:
                    fh.write(out if out.endswith("\n") else out + "\n")
            else:
                sys.stdout.write(out if out.endswith("\n") else out + "\n")
    finally:
        store.dispose()
    return EXIT_OK
