"""Exports of a whole game: JSON, a plain-text log of results, and a Tenhou-style log.

The Tenhou form follows tenhou.net/6's JSON log (``title``, ``name``, ``rule``, ``log``,
``sc``): one array per hand with ``[round index, honba, riichi sticks]``, the scores at
its start, and its result (``和了`` with each seat's change and who won from whom, or a
draw's name). The ledger knows results, not tiles, so the tile arrays (dora, ura, each
seat's starting hand, draws and discards) are empty: viewers show the scores of every hand
and skip the play-by-play.
"""

from __future__ import annotations

from typing import Any

from scoring.api import score
from scoring.errors import AgariError
from scoring.ruleset import resolve_ruleset
from webapp.ledger.repository import SEATS, TableRecord
from webapp.ledger.state import public_view

WINDS = "ESWN"
#: Tenhou's names of the ends of a hand that are not wins (chombo has none: ours).
ABORTIVE_NAMES = {
    "nine_terminals": "九種九牌",
    "four_winds": "四風連打",
    "four_kans": "四槓散了",
    "four_riichi": "四家立直",
    "triple_ron": "三家和了",
}


def _round_index(round_code: str) -> int:
    """``E1`` -> 0 ... ``S4`` -> 7, ``W1`` -> 8 (Tenhou numbers hands through the game)."""
    return WINDS.index(round_code[0]) * 4 + int(round_code[1:]) - 1


def _result(entry: dict[str, Any], hand: dict[str, Any], ruleset: Any, stick: int) -> list[Any]:
    # Tenhou's result changes leave out the hand's riichi declarations (their sticks leave
    # the scores when declared); ours count them: each declarer's stick is given back here.
    declared = set(entry.get("riichi") or [])
    deltas = [hand["deltas"][s] + (stick if s in declared else 0) for s in SEATS]
    kind = entry.get("result")
    if kind == "win":
        out: list[Any] = ["和了"]
        wins = entry.get("wins") or [entry]
        for i, win in enumerate(wins):
            who = SEATS.index(win["winner"])
            frm = SEATS.index(entry["from"]) if entry.get("from") else who
            text = _points_text(win, entry, hand, ruleset)
            # The replay gives one change per seat for the whole hand: with several
            # winners it goes with the first, and the others show zeros.
            out += [deltas if i == 0 else [0, 0, 0, 0], [who, frm, who, text]]
        return out
    if kind == "draw":
        tenpai = entry.get("tenpai") or []
        if entry.get("nagashi"):
            name = "流し満貫"
        elif len(tenpai) == 4:
            name = "全員聴牌"
        elif not tenpai:
            name = "全員不聴"
        else:
            name = "流局"
        return [name, deltas]
    if kind == "abortive":
        return [ABORTIVE_NAMES.get(entry.get("kind", ""), "流局")]
    return ["チョンボ", deltas]


def _points_text(
    win: dict[str, Any], entry: dict[str, Any], hand: dict[str, Any], ruleset: Any
) -> str:
    """Tenhou's payment text: ``3900点`` (ron), ``1000-2000点`` (tsumo), ``1300点∀`` (a
    dealer's tsumo, all pay); for a win recorded as its score request, from its score."""
    points = win.get("points")
    if isinstance(points, list):
        return "-".join(str(p) for p in points) + "点"
    if points is not None:
        all_pay = not entry.get("from") and win.get("winner") == hand.get("dealer")
        return f"{points}点" + ("∀" if all_pay else "")
    request = win.get("request")
    if not isinstance(request, dict):
        return ""  # recorded as deltas: no value to name
    try:
        scored = score({**request, "ruleset": ruleset, "honba": 0, "riichi_sticks": 0})
    except AgariError:
        return ""
    announce = str(scored.get("announce") or scored.get("points") or "")
    if announce.endswith(" all"):
        return announce.removesuffix(" all") + "点∀"
    return f"{announce}点" if announce else ""


def _tenhou_hand(
    entry: dict[str, Any], hand: dict[str, Any], ruleset: Any, stick: int
) -> list[Any]:
    empty: list[list[Any]] = [[] for _ in range(14)]  # dora, ura, 4 x (hand, draws, discards)
    return [
        [_round_index(hand["round"]), hand["honba"], hand["riichi_sticks"]],
        [hand["scores_before"][s] for s in SEATS],
        *empty,
        _result(entry, hand, ruleset, stick),
    ]


def tenhou_log(table: TableRecord, board: dict[str, Any]) -> dict[str, Any]:
    stick = resolve_ruleset(table.ruleset).riichi_stick_value  # once, not for every hand
    sc: list[Any] = []
    final = {row["seat"]: row for row in board.get("standings") or []}
    for s in SEATS:
        sc += [
            board["scores"][s] // 100,  # Tenhou writes scores in hundreds
            final.get(s, {}).get("result"),
        ]
    return {
        "title": [table.title or table.id, table.created_at.date().isoformat()],
        "name": [table.players[s] for s in SEATS],
        "rule": {
            "disp": table.ruleset if isinstance(table.ruleset, str) else table.ruleset["base"]
        },
        "log": [
            _tenhou_hand(e.data, h, table.ruleset, stick)
            for e, h in zip(table.entries, board["hands"], strict=True)
        ],
        "sc": sc,
    }


def text_log(table: TableRecord, board: dict[str, Any]) -> str:
    names = [table.players[s] for s in SEATS]
    lines = [f"# {table.title or table.id} · {table.ruleset} · " + " / ".join(names)]
    # Which column is whose: the changes, then the scores after, each in seat order E S W N.
    seats = "  ".join(f"{s:>6}" for s in SEATS)
    after_head = " ".join(f"{s:>6}" for s in SEATS)
    lines.append(f"{'#':>3}  {'hand':<5} {'result':<44} {seats}  | {after_head}")
    for h in board.get("hands", []):
        deltas = "  ".join(f"{h['deltas'][s]:+6d}" if h["deltas"][s] else "      " for s in SEATS)
        after = " ".join(f"{h['scores_after'][s]:6d}" for s in SEATS)
        lines.append(
            f"{h['seq']:3d}  {h['round']}-{h['honba']}  {h['summary']:<44} {deltas}  | {after}"
        )
        lines += [f"{'':13}{note}" for note in h.get("notes", [])]
    if board.get("error"):
        lines.append(f"!! the replay stops: {board['error']['message']} ({board['error']['code']})")
    if board.get("standings"):
        lines.append("final: " + ", ".join(
            f"{r['rank']}. {table.players[r['seat']]} {r['score']} ({r['result']:+})"
            for r in board["standings"]
        ))  # fmt: skip
    return "\n".join(lines) + "\n"


def export_game(table: TableRecord) -> dict[str, Any]:
    """Everything about a table: its public view, the text log and the Tenhou-style log."""
    view = public_view(table)
    board = view["scoreboard"]
    doc: dict[str, Any] = {"format": "agari-table/1", **view, "log": text_log(table, board)}
    doc["tenhou"] = tenhou_log(table, board) if "error" not in board else None
    return doc
