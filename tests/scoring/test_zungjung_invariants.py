"""Invariants of the Zung Jung scorer over many random winning hands (fixed seed, fast).

Random hands are built set by set (sequences, triplets, kongs; some declared, some
concealed) plus a pair, won by self-draw or on a discard. For each: the best reading is
worth at least every alternative, one pattern per series (Value Honor aside), the value is
within the limits, the winner collects 3V and nobody else gains.
"""

from __future__ import annotations

import random

import pytest

from scoring.errors import InvalidHandError
from scoring.tiles import NUM_KINDS
from scoring.zungjung import Hand, Meld, load_table, payments
from scoring.zungjung.evaluate import evaluate

TABLES = ("v3.3", "v1.03")


def random_hand(rng: random.Random) -> Hand | None:
    counts = [0] * NUM_KINDS
    concealed = [0] * NUM_KINDS
    melds: list[Meld] = []

    def take(kinds: tuple[int, ...]) -> bool:
        if any(counts[k] + kinds.count(k) > 4 for k in set(kinds)):
            return False
        for k in kinds:
            counts[k] += 1
        return True

    # Half the hands stay in one suit, where ambiguous readings (freedom of count) live.
    one_suit = rng.randrange(3) if rng.random() < 0.5 else None
    pool = range(one_suit * 9, one_suit * 9 + 9) if one_suit is not None else range(NUM_KINDS)
    for _ in range(4):
        for _attempt in range(20):
            shape = rng.choice(("seq", "seq", "seq", "trip", "trip", "kong"))
            if shape == "seq":
                suit = one_suit if one_suit is not None else rng.randrange(3)
                k = suit * 9 + rng.randrange(7)
                kinds: tuple[int, ...] = (k, k + 1, k + 2)
            else:
                k = rng.choice(pool)
                kinds = (k,) * (4 if shape == "kong" else 3)
            if take(kinds):
                break
        else:
            return None
        declared = shape == "kong" or rng.random() < 0.2
        if declared:
            kind = {"seq": "chow", "trip": "pung", "kong": "kong"}[shape]
            melds.append(Meld(kind, k, concealed=shape == "kong" and rng.random() < 0.5))  # type: ignore[arg-type]
        else:
            for t in kinds:
                concealed[t] += 1
    pair = rng.choice(pool)
    if not take((pair, pair)):
        return None
    concealed[pair] += 2
    held = [k for k in range(NUM_KINDS) for _ in range(concealed[k])]
    win_tile = rng.choice(held)
    concealed[win_tile] -= 1
    try:
        return Hand(
            concealed=tuple(concealed),
            win_tile=win_tile,
            melds=tuple(melds),
            self_drawn=rng.random() < 0.5,
            seat_wind=27 + rng.randrange(4),
        )
    except InvalidHandError:
        return None


def hands(n: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    out: list[Hand] = []
    while len(out) < n:
        h = random_hand(rng)
        if h is not None:
            out.append(h)
    return out


@pytest.mark.parametrize("table_id", TABLES)
def test_invariants_over_random_hands(table_id: str) -> None:
    table = load_table(table_id)
    for h in hands(1000, seed=5):
        e = evaluate(h, table)
        best = e.best
        assert all(best.value >= o.value for o in e.alternatives), h
        assert 1 <= best.value <= max(p.value for p in table.patterns.values())
        if best.chicken:
            assert best.value == table.chicken_value and best.reading.shape == "regular"
            continue
        series = [table.patterns[s.id].series for s in best.found if s.id != "value_honor"]
        assert len(series) == len(set(series)), (h, best.found)
        if best.limit is None:
            assert best.value == best.raw <= table.compound_limit
        if best.limit == "listed_limit":
            assert len(best.patterns) == 1 and table.is_listed_limit(best.patterns[0].id)
        else:
            assert best.value == min(best.raw, table.compound_limit)
        if not h.self_drawn:
            # a discard win can never make a hand worth more than the same tiles self-drawn
            drawn = Hand(
                concealed=h.concealed,
                win_tile=h.win_tile,
                melds=h.melds,
                self_drawn=True,
                seat_wind=h.seat_wind,
            )
            assert evaluate(drawn, table).best.value >= best.value
        for resp in (None, "S"):
            d = payments(best.value, "E", resp, par=table.par)
            assert d["E"] == 3 * best.value and sum(d.values()) == 0
            assert all(v <= 0 for s, v in d.items() if s != "E")
