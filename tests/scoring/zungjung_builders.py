"""Builders for the Zung Jung tests: hands from MPSZ notation, rulesets without TOML files."""

from __future__ import annotations

from typing import Any

from scoring.notation import parse_tiles
from scoring.ruleset import Ruleset, load_ruleset, with_overrides
from scoring.tiles import counts_of, wind_kind
from scoring.zungjung import Hand, Meld, Result, evaluate, load_table, score_hand
from scoring.zungjung.evaluate import Evaluation

_KINDS = {"chow": "chow", "pung": "pung", "kong": "kong", "ckong": "kong"}


def meld(text: str) -> Meld:
    """``'chow 678s'``, ``'pung 555s'``, ``'kong 5p'`` (exposed), ``'ckong 5p'`` (concealed)."""
    kind, tiles = text.split()
    first = parse_tiles(tiles)[0]
    return Meld(_KINDS[kind], first.kind, concealed=kind == "ckong")  # type: ignore[arg-type]


def hand(
    closed: str, win: str, *melds: str, tsumo: bool = False, seat: str = "E", **flags: bool
) -> Hand:
    """A hand: concealed tiles without the winning tile, the winning tile, then melds."""
    return Hand(
        concealed=counts_of(parse_tiles(closed)),
        win_tile=parse_tiles(win)[0].kind,
        melds=tuple(meld(m) for m in melds),
        self_drawn=tsumo,
        seat_wind=wind_kind(seat),
        **flags,
    )


def zj_ruleset(table: str = "v3.3", min_points: int = 0, **more: Any) -> Ruleset:
    """A Zung Jung ruleset built by overrides (independent of the shipped TOML files)."""
    overrides = {"scoring": "zung_jung", "zj_table": table, "zj_min_points": min_points}
    return with_overrides(load_ruleset("tenhou"), overrides | more)


def ev(h: Hand, table: str = "v3.3", min_points: int = 0) -> Evaluation:
    return evaluate(h, load_table(table), min_points=min_points)


def ids(h: Hand, table: str = "v3.3") -> list[str]:
    """Ids of the counted patterns of the best reading (Value Honor once per set)."""
    return [p.id for p in ev(h, table).best.patterns]


def value(h: Hand, table: str = "v3.3") -> int:
    return ev(h, table).best.value


def win(h: Hand, winner: str = "E", discarder: str | None = None, **kw: Any) -> Result:
    rs = kw.pop("ruleset", None) or zj_ruleset()
    return score_hand(h, rs, winner=winner, discarder=discarder, **kw)
