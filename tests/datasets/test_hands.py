from __future__ import annotations

from collections import Counter

import numpy as np

from datasets.hands import SOURCES, is_winning_shape, random_hand, win_context
from scoring.notation import parse_tiles


def _hands(n: int = 400, seed: int = 5):
    rng = np.random.default_rng(seed)
    return [random_hand(rng) for _ in range(n)]


def test_every_hand_is_a_win() -> None:
    for h in _hands():
        assert is_winning_shape(h), h


def test_tile_counts_and_red_fives_are_possible() -> None:
    for h in _hands():
        tiles = h.all_tiles() + list(h.dora_indicators) + list(h.ura_indicators)
        kinds = Counter(t.kind for t in parse_tiles("".join(tiles)))
        assert max(kinds.values()) <= 4, h
        reds = Counter(t for t in tiles if t[0] == "0")
        assert all(c == 1 for c in reds.values()), h


def test_a_hand_with_red_fives_holding_all_four_fives_of_a_suit_holds_its_red() -> None:
    # A game with red fives has one per suit, so four fives of a suit include it (the
    # grouping reads a closed kan of fives that way).
    held = 0
    for h in _hands(6000, seed=11):
        tiles = h.all_tiles()
        if not any(t[0] == "0" for t in tiles):
            continue  # maybe a game without red fives
        for suit in "mps":
            fives = [t for t in tiles if t in ("5" + suit, "0" + suit)]
            if len(fives) == 4:
                held += 1
                assert "0" + suit in fives, h
    assert held >= 5  # the case really occurs in this sample


def test_called_tile_lies_where_it_came_from() -> None:
    seen = Counter()
    for h in _hands():
        for m in h.melds:
            seen[m.kind] += 1
            if m.kind == "ankan":
                assert m.source is None and not m.sideways
                assert m.face_down in ((0, 3), (1, 2))
                continue
            assert m.source in SOURCES
            called = m.sideways[0]
            if m.kind == "chi":
                assert m.source == "left" and called == 0
            elif m.kind in ("pon", "kakan"):
                assert called == SOURCES.index(m.source)
            else:  # daiminkan: first, a middle one, or last
                assert called == {"left": 0, "right": 3}.get(m.source, called)
                assert m.source != "across" or called in (1, 2)
            if m.kind == "kakan":
                assert m.sideways == (called, 3) and m.stacked_on == called
    assert set(seen) == {"chi", "pon", "daiminkan", "kakan", "ankan"}


def test_request_form() -> None:
    for h in _hands(100):
        req = h.to_request()
        assert set(req) == {"closed", "win_tile", "melds", "dora_indicators", "ura_indicators"}
        n = len(parse_tiles(req["closed"])) + 1
        n += sum(min(3, len(parse_tiles(m["tiles"]))) for m in req["melds"])
        assert n == 14
        for m in req["melds"]:
            assert ("from" in m) == (m["kind"] != "ankan")


def test_hands_with_their_context_score_as_wins() -> None:
    """Plausible riichi wins: with the context drawn for them, every hand has a yaku."""
    from scoring.api import score

    rng = np.random.default_rng(11)
    for h in _hands(150, seed=12):
        req = {**h.to_request(), **win_context(h, rng), "ruleset": "tenhou"}
        req.update(honba=0, riichi_sticks=0)
        result = score(req)
        assert result["han"] >= 1, (req, result)
