"""``agari table``: create, list, show, record a hand, undo and export ledger tables from the
command line.

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
    r = sub.add_parser(
        "record",
        help="record one hand at the table (its write token): an entry as `agari game` reads "
        'one hand, e.g. \'{"result": "win", "winner": "S", "from": "W", '
        '"points": 3900}\' (or - for stdin); prints the scoreboard',
    )
    r.add_argument("id")
    r.add_argument("entry", help="the hand as JSON, or - to read it from stdin")
    r.add_argument(
        "--token", help="the table's write token (default: $AGARI_TABLE_TOKEN; never logged)"
    )
    r.add_argument("--json", action="store_true")
    u = sub.add_parser("undo", help="remove the table's last hand (its write token)")
    u.add_argument("id")
    u.add_argument("--token", help="the table's write token (default: $AGARI_TABLE_TOKEN)")
    u.add_argument("--json", action="store_true")
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
        raise RequestError(
            "say what to do: agari table create|list|show|record|undo|export", code="usage"
        )
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
        elif action in ("record", "undo"):
            from scoring.errors import parse_json
            from webapp.ledger.state import check_replays

            token = args.token or os.environ.get("AGARI_TABLE_TOKEN")
            if not token:
                raise RequestError(
                    "give the table's write token: --token or $AGARI_TABLE_TOKEN",
                    code="token_required",
                )
            if action == "record":
                text = sys.stdin.read() if args.entry == "-" else args.entry
                entry = parse_json(text, what="the entry")
                if not isinstance(entry, dict):
                    raise RequestError("the entry must be a JSON object", code="bad_request")
                # As POST /api/v1/tables/ID/entries: the game replay must accept it.
                table = repo.append_entry(store, args.id, token, entry, check=check_replays)
            else:
                table, removed = repo.undo_last(store, args.id, token)
                if not args.json:
                    print(f"undone: hand {removed.seq} ({removed.data.get('result')})")
            print(_dump(public_view(table)) if args.json else scoreboard_text(table))
        else:
            doc = export_game(repo.get_table(store, args.id))
            text = {"json": _dump(doc), "log": doc["log"], "tenhou": _dump(doc["tenhou"])}
            out = text[args.format]
            if args.output:
                try:
                    with open(args.output, "w", encoding="utf-8") as fh:
                        fh.write(out if out.endswith("\n") else out + "\n")
                except OSError as exc:
                    raise RequestError(
                        f"cannot write {args.output!r}: {exc.strerror}", code="bad_path"
                    ) from None
            else:
                sys.stdout.write(out if out.endswith("\n") else out + "\n")
    finally:
        store.dispose()
    return EXIT_OK
