"""Every yaku, one small pure test each. Han are the common riichi values (Tenhou, EMA,
JPML all agree on these; open han 0 means "closed only"). Ruleset switches are read from
the :class:`~scoring.ruleset.Ruleset`, never written to it."""

from __future__ import annotations

from scoring.context import WinContext as C
from scoring.reading import Reading as R
from scoring.ruleset import Ruleset as RS
from scoring.tiles import (
    DRAGONS,
    HATSU,
    IS_YAOCHUU,
    WINDS,
)
from scoring.yaku.registry import yaku

_WIND_NAMES = ("east", "south", "west", "north")
_CHUUREN = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _std(r: R) -> bool:
    return r.shape == "standard"


def _yakuhai_kinds(c: C) -> tuple[int, ...]:
    return (*DRAGONS, c.seat_wind, c.round_wind)


def _group_has_yaochuu(base: int, is_run: bool) -> bool:
    if is_run:
        return base % 9 in (0, 6)
    return IS_YAOCHUU[base]


def _concealed_triplets(r: R) -> int:
    return sum(1 for g in r.groups if not g.is_run and g.concealed)


def _kans(r: R) -> int:
    return sum(1 for g in r.groups if g.is_kan)


# --- situational yaku -------------------------------------------------------------------


@yaku("menzen_tsumo", 1, rule="menzen tsumo: closed hand won by self-draw, 1 han")
def menzen_tsumo(r: R, c: C, rs: RS) -> bool:
    return c.is_tsumo and r.menzen


@yaku("riichi", 1, rule="riichi: 1 han, closed only")
def riichi(r: R, c: C, rs: RS) -> bool:
    return c.riichi


@yaku("double_riichi", 2, supersedes=("riichi",), rule="double riichi: riichi on the first turn")
def double_riichi(r: R, c: C, rs: RS) -> bool:
    return c.double_riichi


@yaku("ippatsu", 1, rule="ippatsu: win within one go-around of riichi, 1 han (ruleset switch)")
def ippatsu(r: R, c: C, rs: RS) -> bool:
    return c.ippatsu and rs.ippatsu


@yaku("chankan", 1, 1, rule="chankan: ron on a tile added to a kan, 1 han")
def chankan(r: R, c: C, rs: RS) -> bool:
    return c.chankan


@yaku("rinshan", 1, 1, rule="rinshan kaihou: tsumo on the replacement tile of a kan, 1 han")
def rinshan(r: R, c: C, rs: RS) -> bool:
    return c.rinshan


@yaku("haitei", 1, 1, rule="haitei raoyue: tsumo on the last wall tile, 1 han")
def haitei(r: R, c: C, rs: RS) -> bool:
    return c.haitei


@yaku("houtei", 1, 1, rule="houtei raoyui: ron on the last discard, 1 han")
def houtei(r: R, c: C, rs: RS) -> bool:
    return c.houtei


# --- hand-shape yaku --------------------------------------------------------------------


@yaku("pinfu", 1, rule="pinfu: closed, four runs, non-yakuhai pair, two-sided wait")
def pinfu(r: R, c: C, rs: RS) -> bool:
    return (
        r.menzen
        and _std(r)
        and len(r.runs) == 4
        and r.wait == "ryanmen"
        and r.pair not in _yakuhai_kinds(c)
    )


@yaku("tanyao", 1, 1, rule="tanyao: simples only; open allowed per Ruleset.open_tanyao")
def tanyao(r: R, c: C, rs: RS) -> bool:
    if not (r.menzen or rs.open_tanyao):
        return False
    return not r.palette.has_yaochuu


@yaku("iipeikou", 1, rule="iipeikou: closed, two identical runs")
def iipeikou(r: R, c: C, rs: RS) -> bool:
    runs = r.runs
    return len(runs) >= 2 and len(set(runs)) < len(runs)


@yaku("ryanpeikou", 3, supersedes=("iipeikou",), rule="ryanpeikou: closed, two iipeikou")
def ryanpeikou(r: R, c: C, rs: RS) -> bool:
    runs = r.runs
    return len(runs) == 4 and sum(runs.count(b) // 2 for b in set(runs)) == 2


def _make_wind(wind: int, seat: bool) -> None:
    name = f"{'seat' if seat else 'round'}_wind_{_WIND_NAMES[wind - WINDS[0]]}"

    @yaku(name, 1, 1, rule=f"yakuhai: triplet of the {'seat' if seat else 'round'} wind")
    def test(r: R, c: C, rs: RS) -> bool:
        return (c.seat_wind if seat else c.round_wind) == wind and wind in r.triplets


for _w in WINDS:
    _make_wind(_w, seat=True)
for _w in WINDS:
    _make_wind(_w, seat=False)


def _make_dragon(kind: int, name: str) -> None:
    @yaku(name, 1, 1, rule=f"yakuhai: triplet of {name}")
    def test(r: R, c: C, rs: RS) -> bool:
        return kind in r.triplets


for _k, _n in zip(DRAGONS, ("haku", "hatsu", "chun"), strict=True):
    _make_dragon(_k, _n)


@yaku("chiitoitsu", 2, rule="chiitoitsu: seven distinct pairs, closed, 25 fu")
def chiitoitsu(r: R, c: C, rs: RS) -> bool:
    return r.shape == "chiitoitsu"


@yaku("chanta", 2, 1, rule="chanta: every set and the pair hold a terminal or honour; a run")
def chanta(r: R, c: C, rs: RS) -> bool:
    return (
        _std(r)
        and bool(r.runs)
        and IS_YAOCHUU[r.pair]
        and all(_group_has_yaochuu(g.base, g.is_run) for g in r.groups)
    )


@yaku("junchan", 3, 2, supersedes=("chanta",), rule="junchan: chanta without honours")
def junchan(r: R, c: C, rs: RS) -> bool:
    return not r.palette.has_honor and chanta(r, c, rs)


@yaku("ittsu", 2, 1, rule="ittsu: 123 456 789 of one suit")
def ittsu(r: R, c: C, rs: RS) -> bool:
    runs = r.runs
    return len(runs) >= 3 and any(s in runs and s + 3 in runs and s + 6 in runs for s in (0, 9, 18))


@yaku("sanshoku_doujun", 2, 1, rule="sanshoku doujun: the same run in all three suits")
def sanshoku_doujun(r: R, c: C, rs: RS) -> bool:
    runs = r.runs
    return len(runs) >= 3 and any(b + 9 in runs and b + 18 in runs for b in runs if b < 9)


@yaku("sanshoku_doukou", 2, 2, rule="sanshoku doukou: the same triplet in all three suits")
def sanshoku_doukou(r: R, c: C, rs: RS) -> bool:
    t = r.triplets
    return len(t) >= 3 and any(b + 9 in t and b + 18 in t for b in t if b < 9)


@yaku("sankantsu", 2, 2, rule="sankantsu: three kans")
def sankantsu(r: R, c: C, rs: RS) -> bool:
    return _kans(r) == 3


@yaku("toitoi", 2, 2, rule="toitoi: four triplets or kans")
def toitoi(r: R, c: C, rs: RS) -> bool:
    return _std(r) and len(r.triplets) == 4


@yaku("sanankou", 2, 2, rule="sanankou: three concealed triplets (one won by ron is open)")
def sanankou(r: R, c: C, rs: RS) -> bool:
    return len(r.triplets) >= 3 and _concealed_triplets(r) == 3


@yaku("shousangen", 2, 2, rule="shousangen: two dragon triplets and a dragon pair")
def shousangen(r: R, c: C, rs: RS) -> bool:
    return _std(r) and r.pair in DRAGONS and sum(1 for k in r.triplets if k in DRAGONS) == 2


@yaku("honroutou", 2, 2, rule="honroutou: only terminals and honours")
def honroutou(r: R, c: C, rs: RS) -> bool:
    return r.palette.only_yaochuu and r.shape != "kokushi"


@yaku("honitsu", 3, 2, rule="honitsu: one suit plus honours")
def honitsu(r: R, c: C, rs: RS) -> bool:
    return r.palette.suits == 1 and r.shape != "kokushi"


@yaku("chinitsu", 6, 5, supersedes=("honitsu",), rule="chinitsu: one suit, no honours")
def chinitsu(r: R, c: C, rs: RS) -> bool:
    return r.palette.suits == 1 and not r.palette.has_honor


# --- yakuman ----------------------------------------------------------------------------


@yaku("kokushi", yakuman=True, rule="kokushi musou: one of each terminal and honour plus a pair")
def kokushi(r: R, c: C, rs: RS) -> bool:
    return r.shape == "kokushi"


@yaku(
    "kokushi_13_wait",
    yakuman=True,
    double=True,
    supersedes=("kokushi",),
    rule="kokushi 13-sided wait (double per Ruleset.double_yakuman)",
)
def kokushi_13(r: R, c: C, rs: RS) -> bool:
    return r.wait == "kokushi_13"


@yaku("suuankou", yakuman=True, rule="suuankou: four concealed triplets")
def suuankou(r: R, c: C, rs: RS) -> bool:
    return len(r.triplets) == 4 and _concealed_triplets(r) == 4


@yaku(
    "suuankou_tanki",
    yakuman=True,
    double=True,
    supersedes=("suuankou",),
    rule="suuankou on a pair wait (double per Ruleset.double_yakuman)",
)
def suuankou_tanki(r: R, c: C, rs: RS) -> bool:
    return r.wait == "tanki" and suuankou(r, c, rs)


@yaku("daisangen", yakuman=True, rule="daisangen: three dragon triplets")
def daisangen(r: R, c: C, rs: RS) -> bool:
    return sum(1 for k in r.triplets if k in DRAGONS) == 3


@yaku("shousuushii", yakuman=True, rule="shousuushii: three wind triplets and a wind pair")
def shousuushii(r: R, c: C, rs: RS) -> bool:
    return _std(r) and r.pair in WINDS and sum(1 for k in r.triplets if k in WINDS) == 3


@yaku(
    "daisuushii",
    yakuman=True,
    double=True,
    supersedes=("shousuushii",),
    rule="daisuushii: four wind triplets (double per Ruleset.double_yakuman)",
)
def daisuushii(r: R, c: C, rs: RS) -> bool:
    return sum(1 for k in r.triplets if k in WINDS) == 4


@yaku("tsuuiisou", yakuman=True, rule="tsuuiisou: honours only")
def tsuuiisou(r: R, c: C, rs: RS) -> bool:
    return r.palette.only_honor


@yaku("ryuuiisou", yakuman=True, rule="ryuuiisou: 23468s and hatsu only (hatsu per ruleset)")
def ryuuiisou(r: R, c: C, rs: RS) -> bool:
    if not r.palette.only_green:
        return False
    if rs.ryuuiisou_hatsu_triplet:  # "a pon of hatsu": the pair of hatsu is not enough
        return HATSU in r.triplets
    return r.palette.has(HATSU) or not rs.ryuuiisou_needs_hatsu


@yaku("chinroutou", yakuman=True, rule="chinroutou: terminals only")
def chinroutou(r: R, c: C, rs: RS) -> bool:
    return r.palette.only_terminal


def _chuuren_suit(r: R) -> int:
    """The suit's first kind when the concealed 14 tiles are 1112345678999 + one, else -1."""
    if r.palette.suits != 1 or r.palette.has_honor or r.shape != "standard":
        return -1
    if not r.menzen or any(g.called for g in r.groups):
        return -1
    s = r.palette.first_suit_base
    counts = r.counts
    return s if all(counts[s + i] >= _CHUUREN[i] for i in range(9)) else -1


@yaku("chuuren_poutou", yakuman=True, rule="chuuren poutou: 1112345678999 plus one, closed")
def chuuren_poutou(r: R, c: C, rs: RS) -> bool:
    return _chuuren_suit(r) >= 0


@yaku(
    "junsei_chuuren_poutou",
    yakuman=True,
    double=True,
    supersedes=("chuuren_poutou",),
    rule="chuuren on the nine-sided wait (double per Ruleset.double_yakuman)",
)
def junsei_chuuren_poutou(r: R, c: C, rs: RS) -> bool:
    s = _chuuren_suit(r)
    return s >= 0 and all(r.closed_counts[s + i] == _CHUUREN[i] for i in range(9))


@yaku("suukantsu", yakuman=True, rule="suukantsu: four kans")
def suukantsu(r: R, c: C, rs: RS) -> bool:
    return _kans(r) == 4


@yaku("tenhou", yakuman=True, rule="tenhou: the dealer's complete hand on the first draw")
def tenhou(r: R, c: C, rs: RS) -> bool:
    return c.tenhou


@yaku("chiihou", yakuman=True, rule="chiihou: a non-dealer's tsumo on the first draw")
def chiihou(r: R, c: C, rs: RS) -> bool:
    return c.chiihou


@yaku("renhou", yakuman=True, rule="renhou as yakuman (Ruleset.renhou = 'yakuman')")
def renhou_yakuman(r: R, c: C, rs: RS) -> bool:
    return c.renhou and rs.renhou == "yakuman"


@yaku("renhou", 5, rule="renhou as a 5-han yaku that adds up (Ruleset.renhou = 'han5')")
def renhou_han5(r: R, c: C, rs: RS) -> bool:
    return c.renhou and rs.renhou == "han5"
