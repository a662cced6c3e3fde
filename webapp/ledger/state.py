"""A table's state, derived: its stored entries replayed through the game flow.

Nothing here knows a rule. :func:`scoring.api.replay_game` decides the next dealer, honba,
sticks, the end of the game and the final standings; this module builds its request from a
table (each stored entry is one element of its ``hands`` list, unchanged) and reads its
answer into the scoreboard that the pages, the overlay and the exports show.
"""

from __future__ import annotations

from typing import Any

import scoring.api
from scoring.errors import AgariError, RequestError
from scoring.ruleset import resolve_ruleset
from webapp.ledger.repository import SEATS, TableRecord

ROUND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}
#: Score-request fields that describe the table, not the hand: the table knows them better
#: than a result page does, so a recorded win leaves them for the replay to fill in.
TABLE_FIELDS = ("ruleset", "round_wind", "honba", "riichi_sticks", "win")


def round_label(code: str) -> str:
    """``E1`` -> ``East 1``."""
    return f"{ROUND_NAMES.get(code[:1], code[:1])} {code[1:]}"


def replay_request(table: TableRecord) -> dict[str, Any]:
    """The ``agari game --json`` request that replays this table's entries."""
    return {"ruleset": table.ruleset, "hands": [dict(e.data) for e in table.entries]}


def replay(table: TableRecord, *, new_entries: int = 0) -> dict[str, Any] | None:
    """The game replay's answer (None for a table with no hand yet); raises its
    AgariError for an illegal hand. The entries stored before the last ``new_entries`` were
    accepted then: a check of typed points added since does not refuse them (what a referee
    saved still reads), the new ones get every check."""
    if not table.entries:
        return None
    trusted = max(len(table.entries) - new_entries, 0)
    return scoring.api.replay_game(replay_request(table), trusted_hands=trusted)


def check_replays(table: TableRecord) -> None:
    """A repository ``check``: refuse an entry the game replay rejects (422: the request was
    well-formed JSON, the hand is not possible at this table). ``table`` holds the new
    entry last."""
    try:
        replay(table, new_entries=1)
    except AgariError as exc:
        if exc.code == "illegal_hand":
            exc.http_status = 422
        raise


def _parse_next(code: str) -> tuple[str, int]:
    """``E2-1`` -> (``E2``, 1)."""
    label, _, honba = code.partition("-")
    return label, int(honba or 0)


def _summary(entry: dict[str, Any], players: dict[str, str], notes: list[str]) -> str:
    result = entry.get("result", "?")

    def name(seat: Any) -> str:
        return str(players.get(seat, seat))

    if result == "win":
        wins = entry.get("wins") or [entry]
        who = ", ".join(name(w.get("winner")) for w in wins)
        text = f"ron: {who} from {name(entry['from'])}" if entry.get("from") else f"tsumo: {who}"
    elif result == "draw":
        tenpai = ", ".join(name(s) for s in entry.get("tenpai") or []) or "nobody"
        text = f"draw, tenpai: {tenpai}"
        if entry.get("nagashi"):
            text = "nagashi mangan: " + ", ".join(name(s) for s in entry["nagashi"])
    elif result == "abortive":
        text = f"abortive draw ({entry.get('kind', '?')})"
    elif result == "chombo":
        text = f"chombo: {name(entry.get('seat'))}"
    else:
        text = str(result)
    if entry.get("riichi"):
        text += " · riichi " + ", ".join(name(s) for s in entry["riichi"])
    return text


def _empty_board(table: TableRecord) -> dict[str, Any]:
    """Before the first hand: the ruleset's starting points, East 1, dealer E."""
    start = resolve_ruleset(table.ruleset).game.start_points
    return {
        "scores": dict.fromkeys(SEATS, start),
        "dealer": "E",
        "round": "E1",
        "round_label": round_label("E1"),
        "honba": 0,
        "riichi_sticks": 0,
        "finished": False,
        "ended": "unfinished",
        "standings": None,
        "hands": [],
        "seat_winds": _seat_winds("E"),
    }


def scoreboard(table: TableRecord) -> dict[str, Any]:
    """What the pages, the overlay and the exports show: the replay's answer in one shape,
    or ``{"error": ...}`` where the replay refuses a stored entry (shown, not raised, so a
    table stays readable even if a later engine disagrees with something stored)."""
    try:
        result = replay(table)
        if result is None:
            return _empty_board(table)
    except AgariError as exc:
        return {"error": exc.to_dict()}
    start = _empty_board(table)
    hands = []
    before, sticks_before = start["scores"], 0
    for entry, hand in zip(table.entries, result["hands"], strict=True):
        hands.append(
            {
                "seq": entry.seq,
                "round": hand["round"],
                "round_label": round_label(hand["round"]),
                "honba": hand["honba"],
                "riichi_sticks": sticks_before,
                "dealer": hand["dealer"],
                "result": hand["result"],
                "summary": _summary(entry.data, table.players, hand.get("notes", [])),
                "notes": hand.get("notes", []),
                "deltas": hand["deltas"],
                "scores_before": before,
                "scores_after": hand["scores"],
            }
        )
        before, sticks_before = hand["scores"], hand["riichi_sticks"]
    finished = result["ended"] != "unfinished"
    board: dict[str, Any] = {
        "scores": result["final_scores"],
        "dealer": None,
        "round": None,
        "round_label": None,
        "honba": 0,
        "riichi_sticks": result["riichi_sticks_left"],
        "finished": finished,
        "ended": result["ended"],
        "standings": result["standings"] if finished else None,
        "hands": hands,
    }
    if result.get("next"):
        label, honba = _parse_next(result["next"])
        board |= {
            "round": label,
            "round_label": round_label(label),
            "honba": honba,
            "dealer": SEATS[int(label[1:]) - 1],
        }
        board["seat_winds"] = _seat_winds(board["dealer"])
    return board


def _seat_winds(dealer: str) -> dict[str, str]:
    """Each player's seat wind in the hand being played (the dealer is East)."""
    d = SEATS.index(dealer)
    return {p: SEATS[(i - d) % 4] for i, p in enumerate(SEATS)}


def win_from_score_request(table: TableRecord, body: dict[str, Any]) -> dict[str, Any]:
    """The entry for a win taken from a result page: ``{"request": score request}`` or
    ``{"requests": [...]}`` for several ron on one discard, plus optional ``riichi`` (the
    seat winds of the other players who declared riichi this hand) and ``note``. The
    request's seat winds are those of the hand being played, so the winner and discarder
    are found from the table's current dealer; the table's ruleset, round wind, honba and
    sticks replace the page's."""
    unknown = set(body) - {"request", "requests", "riichi", "note"}
    if unknown:
        raise RequestError(f"unknown fields {sorted(unknown)}", code="unknown_field")
    requests = body.get("requests") or ([body["request"]] if "request" in body else [])
    if (
        not isinstance(requests, list)
        or not requests
        or not all(isinstance(r, dict) for r in requests)
    ):
        raise RequestError("give 'request' (a score request) or 'requests'", code="missing_field")
    board = scoreboard(table)
    if "error" in board:
        raise RequestError(board["error"]["message"], code=board["error"]["code"])
    if board["finished"]:
        raise RequestError("the game is over: no more hands can be recorded", code="game_over")
    dealer_index = SEATS.index(board["dealer"])

    def player_at(wind: Any, what: str) -> str:
        if wind not in SEATS:
            raise RequestError(f"{what} must be a seat wind E S W N, not {wind!r}", code="bad_seat")
        return SEATS[(SEATS.index(wind) + dealer_index) % 4]

    given = body.get("riichi") or []
    if not isinstance(given, list):
        raise RequestError("riichi must be a list of seat winds", code="bad_request")
    riichi = [player_at(w, "riichi") for w in given]
    wins, discarders = [], set()
    for req in requests:
        winner = player_at(req.get("seat_wind"), "seat_wind")
        if req.get("win") == "ron":
            discarders.add(player_at(req.get("discarder"), "discarder"))
        flags = req.get("flags") or []
        if ("riichi" in flags or "double_riichi" in flags) and winner not in riichi:
            riichi.append(winner)
        clean = {k: v for k, v in req.items() if k not in TABLE_FIELDS}
        wins.append({"winner": winner, "request": clean})
    rons = sum(1 for req in requests if req.get("win") == "ron")
    if len(wins) > 1 and (rons != len(wins) or len(discarders) != 1):
        raise RequestError("several wins must all be ron on the same discard", code="bad_request")
    entry: dict[str, Any] = {"result": "win"}
    if discarders:
        entry["from"] = discarders.pop()
    entry |= {"wins": wins} if len(wins) > 1 else wins[0]
    if riichi:
        entry["riichi"] = sorted(riichi, key=SEATS.index)
    if body.get("note"):
        entry["note"] = body["note"]
    return entry


def scoreboard_text(table: TableRecord) -> str:
    """A few lines for ``agari table show``."""
    board = scoreboard(table)
    head = f"{table.title or table.id} ({table.ruleset}), {len(table.entries)} hands"
    if "error" in board:
        return f"{head}\nthe replay stops: {board['error']['message']}\n"
    if board["finished"]:
        where = f"game over ({board['ended']})"
    else:
        where = f"{board['round_label']}, honba {board['honba']}, sticks {board['riichi_sticks']}"
    # E S W N are the starting seats; a referee needs the wind each player sits at now (a
    # full score request names the winner by it), so it is written out beside the name.
    winds = board.get("seat_winds") or {}
    playing = not board["finished"]
    rows = [
        f"  {s} {table.players[s]:<20} {board['scores'][s]:>7}"
        + (f"  sits {ROUND_NAMES.get(winds[s], winds[s])}" if s in winds and playing else "")
        + (" (dealer)" if s == board["dealer"] and playing else "")
        for s in SEATS
    ]
    for r in board["standings"] or []:
        rows.append(f"  {r['rank']}. {table.players[r['seat']]:<20} {r['result']:+}")
    legend = "  (E S W N: seats at the start)"
    return "\n".join([head, where, *rows, legend]) + "\n"


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
