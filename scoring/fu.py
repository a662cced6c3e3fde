"""Fu, itemised: every item is ``(reason, fu)`` and the items add up to the total.

Rules (common to Tenhou, EMA, JPML; the two ruleset switches are noted):
base 20 (futei); closed ron +10 (menzen kafu); tsumo +2 except pinfu; per set: open
triplet 2, closed triplet 4, open kan 8, closed kan 16, doubled for terminals and honours;
a yakuhai pair 2 per reason (dragon, seat wind, round wind; a double-wind pair 2 or 4 by
``Ruleset.double_wind_pair_fu``); kanchan, penchan and tanki waits 2; pinfu tsumo is a flat
20 and pinfu ron 30; an open hand with no fu at all scores ``Ruleset.open_pinfu_fu`` (30);
then round up to the next 10. Chiitoitsu is a flat 25, kokushi 0 (it is a yakuman).

>>> from scoring.reading import readings
>>> from scoring.notation import parse_tiles
>>> from scoring.tiles import counts_of
>>> from scoring.context import WinContext
>>> from scoring.ruleset import load_ruleset
>>> r = readings(counts_of(parse_tiles("123m456p789s111z2z")), 28, (), False)[0]
>>> ctx = WinContext(is_tsumo=False, seat_wind=28, round_wind=27)
>>> total, items = fu_of(r, ctx, load_ruleset("tenhou"), False)
>>> total, [f"{reason}: {fu}" for reason, fu in items]  # doctest: +NORMALIZE_WHITESPACE
(50, ['base: 20', 'menzen_ron: 10', 'closed_triplet_honor 111z: 8', 'pair_seat_wind 22z: 2',
      'wait_tanki: 2', 'rounding: 8'])
"""

from __future__ import annotations

from scoring.context import WinContext
from scoring.reading import Reading
from scoring.ruleset import Ruleset
from scoring.tiles import DRAGONS, IS_HONOR, IS_YAOCHUU, kind_name

FuItems = tuple[tuple[str, int], ...]

_PINFU_TSUMO: FuItems = (("base", 20),)
_PINFU_RON: FuItems = (("base", 20), ("menzen_ron", 10))
_CHIITOITSU: FuItems = (("chiitoitsu", 25),)


def _set_name(base: int, is_kan: bool) -> str:
    name = kind_name(base)
    return name[0] * (4 if is_kan else 3) + name[1]


def fu_of(r: Reading, c: WinContext, rs: Ruleset, is_pinfu: bool) -> tuple[int, FuItems]:
    """Total fu and its items for one reading (``is_pinfu``: pinfu is among the yaku)."""
    if r.shape == "chiitoitsu":
        return 25, _CHIITOITSU
    if r.shape == "kokushi":
        return 0, ()
    if is_pinfu:
        return (20, _PINFU_TSUMO) if c.is_tsumo else (30, _PINFU_RON)
    items: list[tuple[str, int]] = [("base", 20)]
    if r.menzen and not c.is_tsumo:
        items.append(("menzen_ron", 10))
    if c.is_tsumo:
        items.append(("tsumo", 2))
    for g in r.groups:
        if g.is_run:
            continue
        fu = 2
        if g.concealed:
            fu *= 2
        if g.is_kan:
            fu *= 4
        yaochuu = IS_YAOCHUU[g.base]
        if yaochuu:
            fu *= 2
        state = "closed" if g.concealed else "open"
        what = "kan" if g.is_kan else "triplet"
        kind = ("honor" if IS_HONOR[g.base] else "terminal") if yaochuu else "simple"
        items.append((f"{state}_{what}_{kind} {_set_name(g.base, g.is_kan)}", fu))
    p = r.pair
    pair_name = kind_name(p)
    pair_tiles = pair_name[0] * 2 + pair_name[1]
    if p in DRAGONS:
        items.append((f"pair_dragon {pair_tiles}", 2))
    elif p == c.seat_wind and p == c.round_wind:
        items.append((f"pair_double_wind {pair_tiles}", rs.double_wind_pair_fu))
    elif p == c.seat_wind:
        items.append((f"pair_seat_wind {pair_tiles}", 2))
    elif p == c.round_wind:
        items.append((f"pair_round_wind {pair_tiles}", 2))
    if r.wait in ("kanchan", "penchan", "tanki"):
        items.append((f"wait_{r.wait}", 2))
    total = sum(f for _, f in items)
    if total == 20 and not r.menzen and not c.is_tsumo:
        items.append(("open_pinfu", rs.open_pinfu_fu - 20))
        total = rs.open_pinfu_fu
    rounded = -(-total // 10) * 10
    if rounded != total:
        items.append(("rounding", rounded - total))
    return rounded, tuple(items)


__all__ = ["FuItems", "fu_of"]
