"""A table's state, derived: its stored entries replayed through the game flow.

Nothing here knows a rule. :func:`scoring.api.replay_game` decides the next dealer, honba,
sticks, the end of the game and the final standings; this module only builds its request
from a table and reads its answer into the scoreboard the pages and the overlay show.
"""

from __future__ import annotations

from typing import Any

import scoring.api
from scoring.errors import AgariError
from webapp.ledger.repository import SEATS, TableRecord


def replay_request(table: TableRecord) -> dict[str, Any]:
    """The ``agari game --json`` request that replays this table's entries."""
    return {"ruleset": table.ruleset, "hands": [dict(e.data) for e in table.entries]}


def replay(table: TableRecord) -> dict[str, Any]:
    """The game replay's answer for this table; raises its AgariError for an illegal hand."""
    return scoring.api.replay_game(replay_request(table))


def check_replays(table: TableRecord) -> None:
    """A repository ``check``: refuse an entry the game replay rejects (or one after the end)."""
    if table.entries:
        before = TableRecord(
            table.id, table.title, table.ruleset, table.players, table.revision,
            table.created_at, table.updated_at, table.entries[:-1],
        )  # fmt: skip
        if replay(before).get("finished"):
            exc = AgariError("the game is over: no more hands can be recorded", code="game_over")
            exc.http_status = 409
            raise exc
    replay(table)


ROUND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}


def round_label(code: str) -> str:
    """``E1`` -> ``East 1``."""
    return f"{ROUND_NAMES.get(code[:1], code[:1])} {code[1:]}"


def _summary(entry: dict[str, Any], players: dict[str, str]) -> str:
    kind = entry.get("kind", "?")
    name = players.get
    if kind == "ron":
        wins = entry.get("wins") or [entry]
        who = ", ".join(str(name(w.get("winner"), w.get("winner"))) for w in wins)
        return f"ron: {who} from {name(entry.get('discarder'), entry.get('discarder'))}"
    if kind == "tsumo":
        return f"tsumo: {name(entry.get('winner'), entry.get('winner'))}"
    if kind == "draw":
        tenpai = [str(name(s, s)) for s in entry.get("tenpai", [])]
        return "draw, tenpai: " + (", ".join(tenpai) if tenpai else "nobody")
    if kind == "nagashi":
        return "nagashi mangan: " + ", ".join(str(name(s, s)) for s in entry.get("nagashi", []))
    if kind == "abortive":
        return f"abortive draw ({entry.get('reason', '?')})"
    if kind == "chombo":
        return f"chombo: {name(entry.get('offender'), entry.get('offender'))}"
    return str(kind)


def scoreboard(table: TableRecord) -> dict[str, Any]:
    """What the pages, the overlay and the exports show: the replay's answer in one shape,
    or ``{"error": ...}`` where the replay refuses a stored entry (shown, not raised, so a
    table stays readable even if a later engine disagrees with something stored)."""
    try:
        result = replay(table)
    except AgariError as exc:
        return {"error": exc.to_dict()}
    return _normalise(table, result)


def _normalise(table: TableRecord, result: dict[str, Any]) -> dict[str, Any]:
    hands = []
    for entry, hand in zip(table.entries, result.get("hands", []), strict=False):
        hands.append(
            {
                "seq": entry.seq,
                "round": hand["round"],
                "round_label": round_label(hand["round"]),
                "honba": hand["honba"],
                "riichi_sticks": hand["riichi_sticks"],
                "dealer": hand["dealer"],
                "kind": entry.data.get("kind"),
                "reason": entry.data.get("reason"),
                "summary": _summary(entry.data, table.players),
                "deltas": hand["deltas"],
                "scores_before": hand["scores_before"],
                "scores_after": hand["scores_after"],
                "wins": hand.get("wins", []),
            }
        )
    nxt = result.get("next") or {}
    return {
        "scores": result["scores"],
        "dealer": nxt.get("dealer"),
        "round": nxt.get("round"),
        "round_label": round_label(nxt["round"]) if nxt.get("round") else None,
        "honba": nxt.get("honba", 0),
        "riichi_sticks": nxt.get("riichi_sticks", 0),
        "finished": bool(result.get("finished")),
        "standings": result.get("standings"),
        "hands": hands,
    }


def scoreboard_text(table: TableRecord) -> str:
    """A few lines for ``agari table show``."""
    board = scoreboard(table)
    head = f"{table.title or table.id} ({table.ruleset}), {len(table.entries)} hands"
    if "error" in board:
        return f"{head}\nthe replay stops: {board['error']['message']}\n"
    where = (
        "game over"
        if board["finished"]
        else (f"{board['round_label']}, honba {board['honba']}, sticks {board['riichi_sticks']}")
    )
    rows = [
        f"  {s} {table.players[s]:<20} {board['scores'][s]:>7}"
        + (" dealer" if s == board["dealer"] and not board["finished"] else "")
        for s in SEATS
    ]
    return "\n".join([head, where, *rows]) + "\n"


def public_view(table: TableRecord) -> dict[str, Any]:
    """The public JSON of a table: everything but its token (which is never stored)."""
    return {
        "id": table.id,
        "title": table.title,
        "ruleset": table.ruleset,
        "players": {s: table.players[s] for s in SEATS},
        "revision": table.revision,
        "created_at": table.created_at.isoformat(),
        "updated_at": table.updated_at.isoformat(),
        "entries": [
            {"seq": e.seq, "entry": e.data, "created_at": e.created_at.isoformat()}
            for e in table.entries
        ],
        "scoreboard": scoreboard(table),
    }
