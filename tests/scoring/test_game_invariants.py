"""Random games under every shipped ruleset: whatever happens, no point is created or lost.

Seeded, so a failure replays exactly. For each game: every hand's deltas add up to what went
into or came out of the pot; scores plus the pot always equal 4 x the start points; and the
final results add up to minus the chombo penalties (minus the sticks nobody collects).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from scoring.errors import RequestError
from scoring.game import replay
from scoring.ruleset import list_rulesets, load_ruleset
from scoring.standings import SEATS

RULESETS = [r for r in list_rulesets() if load_ruleset(r).scoring == "riichi"] + ["wsom"]


def random_hand(rng: random.Random, rs_id: str, dealer_hint: int) -> dict[str, Any]:
    rs = load_ruleset(rs_id)
    g = rs.game
    kinds = ["ron", "tsumo", "draw", "draw"]
    if g.abortive_draws:
        kinds.append("abortive")
    if rng.random() < 0.05:
        kinds = ["chombo"]
    kind = rng.choice(kinds)
    riichi = [s for s in SEATS if g.riichi and rng.random() < 0.15]
    if kind == "chombo":
        return {"result": "chombo", "seat": rng.choice(SEATS), "deliberate": rng.random() < 0.3}
    if kind == "abortive":
        return {"result": "abortive", "kind": rng.choice(g.abortive_draws)}
    if kind == "draw":
        tenpai = sorted(set(riichi) | {s for s in SEATS if rng.random() < 0.4})
        return {"result": "draw", "tenpai": tenpai, "riichi": riichi}
    winner = rng.choice(SEATS)
    if rs.scoring != "riichi":  # Zung Jung: self-draw, each pays V
        v = rng.choice([1, 10, 25, 40, 85])
        return {
            "result": "win",
            "winner": winner,
            "deltas": {s: 3 * v if s == winner else -v for s in SEATS},
        }
    if kind == "ron":
        frm = rng.choice([s for s in SEATS if s != winner])
        return {
            "result": "win",
            "winner": winner,
            "from": frm,
            "points": rng.choice([1500, 2900, 3900, 7700, 12000, 18000]),
            "riichi": riichi,
        }
    dealer = SEATS[dealer_hint]
    points: int | list[int] = (
        rng.choice([500, 1300, 2600, 4000, 6000])
        if winner == dealer
        else rng.choice([[300, 500], [700, 1300], [2000, 4000], [3000, 6000]])
    )
    return {"result": "win", "winner": winner, "points": points, "riichi": riichi}


def random_game(rng: random.Random, rs_id: str) -> tuple[list[dict[str, Any]], Any]:
    rs = load_ruleset(rs_id)
    hands: list[dict[str, Any]] = []
    game = None
    for _ in range(40):
        # The next dealer: hand "S3-1" is dealt by the third seat (W).
        dealer = 0 if game is None else int(game.hands[-1].next_hand[1]) - 1
        hand = random_hand(rng, rs_id, dealer)
        try:
            game = replay(rs, [*hands, hand])
        except RequestError as exc:
            if "riichi needs" in exc.message or "noten at the draw" in exc.message:
                continue  # a declarer without points: draw another hand instead
            raise
        hands.append(hand)
        if game.ended != "unfinished":
            break
    return hands, game


@pytest.mark.parametrize("rs_id", RULESETS)
def test_random_games_keep_every_point(rs_id: str) -> None:
    rs = load_ruleset(rs_id)
    g = rs.game
    rng = random.Random(f"agari-{rs_id}")
    for _ in range(15):
        _, game = random_game(rng, rs_id)
        assert game is not None
        for hand in game.hands:
            assert sum(hand.scores.values()) + hand.pot == 4 * g.start_points
        total = sum((s.result for s in game.standings), Fraction(0))
        penalties = sum((s.chombo for s in game.standings), Fraction(0))
        lost = Fraction(game.pot, g.points_per_unit) if g.sticks_at_end == "nobody" else 0
        assert total == -penalties - lost
        assert sorted(s.rank for s in game.standings)[0] == 1
