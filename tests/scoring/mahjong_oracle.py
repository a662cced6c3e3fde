"""Differential oracle: random valid hands scored by Agari and by the ``mahjong`` package.

``random_case(rng)`` builds a physically possible winning hand (standard shape with random
calls and kans, sometimes seven pairs or kokushi) and a consistent situation (winds, tsumo
or ron, riichi / ippatsu / double riichi, haitei / houtei / rinshan / chankan, dora
indicators, red fives, honba and riichi sticks). ``compare(case)`` scores it with both
(han, fu, points, the winner's whole gain, yaku) and returns the differences that remain
after the *documented* ones (``KNOWN``) are set aside.

Equivalent rules: Agari's ``tenhou`` ruleset; mahjong's ``OptionalRules`` with open tanyao,
red fives, single yakuman for the "double" hands, kazoe yakuman, no kiriage, 30 fu for an
open pinfu-shape ron, no pinfu-tsumo 2 fu. mahjong has no ura dora argument, so none are
drawn. Only ``mahjong==1.4.0`` (the pinned dev dependency) is used, and only here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from mahjong.constants import EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld as MjMeld

from scoring.errors import AgariError
from scoring.notation import format_tiles, parse_tenhou_136
from scoring.request import parse_score_request
from scoring.scorer import score_request

OPTIONS = OptionalRules(
    has_open_tanyao=True,
    has_aka_dora=True,
    has_double_yakuman=False,
    kazoe_limit=HandConstants.KAZOE_LIMITED,
    kiriage=False,
    fu_for_open_pinfu=True,
    fu_for_pinfu_tsumo=False,
)
CALCULATOR = HandCalculator()
WIND_NAMES = ("east", "south", "west", "north")
#: mahjong's yaku classes (1.4.0) as Agari's ids; its ``tenhou_id`` is not reliable for
#: winds and suuankou, so the class name is used.
MAHJONG_YAKU = {
    "Tsumo": "menzen_tsumo",
    "Riichi": "riichi",
    "Ippatsu": "ippatsu",
    "Chankan": "chankan",
    "Rinshan": "rinshan",
    "Haitei": "haitei",
    "Houtei": "houtei",
    "DaburuRiichi": "double_riichi",
    "Renhou": "renhou",
    "Pinfu": "pinfu",
    "Tanyao": "tanyao",
    "Iipeiko": "iipeikou",
    "Haku": "haku",
    "Hatsu": "hatsu",
    "Chun": "chun",
    "Sanshoku": "sanshoku_doujun",
    "Ittsu": "ittsu",
    "Chantai": "chanta",
    "Honroto": "honroutou",
    "Toitoi": "toitoi",
    "Sanankou": "sanankou",
    "SanKantsu": "sankantsu",
    "SanshokuDoukou": "sanshoku_doukou",
    "Chiitoitsu": "chiitoitsu",
    "Shosangen": "shousangen",
    "Honitsu": "honitsu",
    "Junchan": "junchan",
    "Ryanpeikou": "ryanpeikou",
    "Chinitsu": "chinitsu",
    "KokushiMusou": "kokushi",
    "ChuurenPoutou": "chuuren_poutou",
    "Suuankou": "suuankou",
    "Daisangen": "daisangen",
    "Shousuushii": "shousuushii",
    "Ryuuiisou": "ryuuiisou",
    "Suukantsu": "suukantsu",
    "Tsuuiisou": "tsuuiisou",
    "Chinroutou": "chinroutou",
    "DaiSuushii": "daisuushii",
    "DaburuKokushiMusou": "kokushi_13_wait",
    "SuuankouTanki": "suuankou_tanki",
    "DaburuChuurenPoutou": "junsei_chuuren_poutou",
    "Tenhou": "tenhou",
    "Chiihou": "chiihou",
    "Dora": "dora",
    "AkaDora": "aka_dora",
}
SEATS = "ESWN"
_DIRECTION = {1: "right", 2: "across", 3: "left"}


@dataclass
class Case:
    """One random hand in both forms."""

    request: dict[str, Any]
    tiles: list[int]
    win_tile: int
    melds: list[MjMeld]
    dora: list[int]
    config: dict[str, Any] = field(default_factory=dict)

    def mahjong_config(self) -> HandConfig:
        return HandConfig(options=OPTIONS, **self.config)


def _take(wall: dict[int, list[int]], kind: int, n: int, rng: random.Random) -> list[int] | None:
    ids = wall[kind]
    if len(ids) < n:
        return None
    rng.shuffle(ids)
    return [ids.pop() for _ in range(n)]


def _wall() -> dict[int, list[int]]:
    return {k: list(range(4 * k, 4 * k + 4)) for k in range(34)}


#: Kind pools that make the rarer hands common enough to be tested: terminals and honours,
#: honours only, the green tiles, terminals only, winds-heavy.
_POOLS: tuple[tuple[int, ...], ...] = (
    (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33),
    (27, 28, 29, 30, 31, 32, 33),
    (19, 20, 21, 23, 25, 32),
    (0, 8, 9, 17, 18, 26),
    (27, 28, 29, 30, 27, 28, 29, 30, 4, 13, 22),
)


def _standard(rng: random.Random, wall: dict[int, list[int]]) -> tuple[list[list[int]], list[int]]:
    """Four sets (lists of ids; runs sorted) and a pair, drawn from the wall."""
    mode = rng.random()
    suit = rng.randrange(3)
    pool: tuple[int, ...] = tuple(range(34))
    if mode < 0.25:  # one suit (plus a few honours): honitsu, chinitsu, ittsu, iipeikou
        pool = tuple(range(9 * suit, 9 * suit + 9)) * 6 + tuple(range(27, 34))
    elif mode < 0.35:
        pool = rng.choice(_POOLS)
    run_rate = 0.9 if rng.random() < 0.3 else 0.6  # all-run hands: pinfu, sanshoku
    sets: list[list[int]] = []
    while len(sets) < 4:
        kind = rng.choice(pool)
        if kind < 27 and kind % 9 <= 6 and rng.random() < run_rate:
            got = [_take(wall, kind + i, 1, rng) for i in range(3)]
            if all(got):
                sets.append([g[0] for g in got if g])
                continue
            for g in got:  # put back a partial run
                if g:
                    wall[g[0] // 4].append(g[0])
            continue
        t = _take(wall, kind, 3, rng)
        if t:
            sets.append(t)
    for _ in range(100):
        pair = _take(wall, rng.choice(pool), 2, rng)
        if pair:
            return sets, pair
    while True:
        pair = _take(wall, rng.randrange(34), 2, rng)
        if pair:
            return sets, pair


def _chuuren(rng: random.Random, wall: dict[int, list[int]]) -> list[int]:
    """1112345678999 plus one more of the same suit."""
    s = 9 * rng.randrange(3)
    counts = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    counts[rng.randrange(9)] += 1
    return [i for n, c in enumerate(counts) for i in _take(wall, s + n, c, rng) or []]


def random_case(rng: random.Random) -> Case:
    """A random valid hand with a consistent situation (see the module docstring)."""
    wall = _wall()
    shape = rng.random()
    melds: list[tuple[str, list[int], int | None]] = []  # kind, ids, from (relative)
    concealed: list[int]
    if shape < 0.02:
        concealed = _chuuren(rng, wall)
    elif shape < 0.06:
        kinds = rng.sample(range(34), 7)
        concealed = [i for k in kinds for i in _take(wall, k, 2, rng) or []]
    elif shape < 0.07:
        yao = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
        concealed = [i for k in yao for i in _take(wall, k, 1, rng) or []]
        concealed += _take(wall, rng.choice(yao), 1, rng) or []
    else:
        sets, pair = _standard(rng, wall)
        concealed = list(pair)
        open_rate = rng.choice((0.0, 0.0, 0.2, 0.5))
        kan_rate = 0.6 if rng.random() < 0.05 else 0.08
        for s in sets:
            is_run = s[0] // 4 != s[1] // 4
            r = rng.random()
            if not is_run and r < kan_rate:
                fourth = _take(wall, s[0] // 4, 1, rng)
                if fourth:
                    kind = rng.choice(("ankan", "daiminkan", "kakan"))
                    melds.append(
                        (kind, s + fourth, None if kind == "ankan" else rng.randrange(1, 4))
                    )
                    continue
            if rng.random() < open_rate:
                melds.append(("chi", s, 3) if is_run else ("pon", s, rng.randrange(1, 4)))
            else:
                concealed += s
    win_tile = rng.choice(concealed)
    menzen = all(k == "ankan" for k, _, _ in melds)
    has_kan = any(k in ("ankan", "daiminkan", "kakan") for k, _, _ in melds)
    seat, round_wind = rng.randrange(4), rng.randrange(2)
    tsumo = rng.random() < 0.5
    flags: list[str] = []
    if menzen and rng.random() < 0.5:
        flags.append("double_riichi" if rng.random() < 0.05 else "riichi")
        if rng.random() < 0.2:
            flags.append("ippatsu")
    r = rng.random()
    if tsumo and has_kan and r < 0.3:
        flags.append("rinshan")
        flags = [f for f in flags if f != "ippatsu"]
    elif tsumo and r < 0.05:
        flags.append("haitei")
    elif not tsumo and r < 0.05:
        flags.append("houtei")
    elif not tsumo and r < 0.08:
        flags.append("chankan")
    if not melds and tsumo and rng.random() < 0.02:  # a first-draw win replaces the rest
        flags = ["tenhou" if seat == 0 else "chiihou"]
    n_dora = 1 + sum(1 for k, _, _ in melds if k != "chi" and k != "pon")
    dora: list[int] = []
    for _ in range(n_dora):
        kind = rng.randrange(34)
        got = _take(wall, kind, 1, rng)
        if got:
            dora += got
    tiles = concealed + [i for _, ids, _ in melds for i in ids]
    hand = list(concealed)
    hand.remove(win_tile)

    def mpsz(ids: list[int]) -> str:
        return format_tiles(parse_tenhou_136(sorted(ids)))

    request: dict[str, Any] = {
        "ruleset": "tenhou",
        "closed": mpsz(hand),
        "win_tile": mpsz([win_tile]),
        "win": "tsumo" if tsumo else "ron",
        "melds": [
            {"kind": k, "tiles": mpsz(ids)} | ({} if f is None else {"from": _DIRECTION[f]})
            for k, ids, f in melds
        ],
        "round_wind": SEATS[round_wind],
        "seat_wind": SEATS[seat],
        "dora_indicators": [mpsz([d]) for d in dora],
        "flags": flags,
    }
    if not tsumo:
        request["discarder"] = SEATS[(seat + rng.randrange(1, 4)) % 4]
    honba, sticks = rng.choice((0, 0, 1, 2, 5)), rng.choice((0, 0, 1, 3))
    request["honba"], request["riichi_sticks"] = honba, sticks
    mj_melds = []
    for k, ids, _f in melds:
        if k == "chi":
            mj_melds.append(MjMeld(MjMeld.CHI, sorted(ids), True))
        elif k == "pon":
            mj_melds.append(MjMeld(MjMeld.PON, ids, True))
        elif k == "kakan":
            mj_melds.append(MjMeld(MjMeld.SHOUMINKAN, ids, True))
        else:
            mj_melds.append(MjMeld(MjMeld.KAN, ids, k == "daiminkan"))
    config = {
        "is_tsumo": tsumo,
        "is_riichi": "riichi" in flags,
        "is_daburu_riichi": "double_riichi" in flags,
        "is_ippatsu": "ippatsu" in flags,
        "is_rinshan": "rinshan" in flags,
        "is_haitei": "haitei" in flags,
        "is_houtei": "houtei" in flags,
        "is_chankan": "chankan" in flags,
        "is_tenhou": "tenhou" in flags,
        "tsumi_number": honba,
        "kyoutaku_number": sticks,
        "is_chiihou": "chiihou" in flags,
        "player_wind": EAST + seat,
        "round_wind": EAST + round_wind,
    }
    return Case(request, tiles, win_tile, mj_melds, dora, config)


@dataclass(frozen=True)
class Outcome:
    """A score reduced to what both libraries report."""

    ok: bool
    han: int = 0
    fu: int = 0
    points: int = 0
    #: What the winner gains in all: points, honba and riichi sticks.
    gain: int = 0
    yaku: frozenset[tuple[str, int]] = frozenset()
    error: str = ""


def agari_outcome(case: Case) -> Outcome:
    try:
        res = score_request(parse_score_request(case.request), alternatives=False)
    except AgariError as exc:
        return Outcome(False, error=exc.code)
    yaku = frozenset((i, h) for i, h in res.yaku)
    gain = res.deltas["ESWN".index(case.request["seat_wind"])]
    return Outcome(True, res.han, res.fu, res.points, gain, yaku)


def mahjong_outcome(case: Case) -> Outcome:
    res = CALCULATOR.estimate_hand_value(
        case.tiles, case.win_tile, case.melds, case.dora, case.mahjong_config()
    )
    if res.error:
        return Outcome(False, error=str(res.error))
    yaku = []
    seat = case.config["player_wind"] - EAST
    round_wind = case.config["round_wind"] - EAST
    for y in res.yaku:
        name = type(y).__name__
        if name == "YakuhaiOfPlace":
            ident = f"seat_wind_{WIND_NAMES[seat]}"
        elif name == "YakuhaiOfRound":
            ident = f"round_wind_{WIND_NAMES[round_wind]}"
        else:
            ident = MAHJONG_YAKU[name]
        if y.is_yakuman:
            yaku.append((ident, 13))
            continue
        if name in ("Dora", "AkaDora"):  # their han_* hold the number of dora
            han = y.han_closed
        else:
            han = y.han_open if res.is_open_hand else y.han_closed
        if han:
            yaku.append((ident, han))
    assert res.cost is not None
    cost = res.cost
    points = cost["main"] + 2 * cost["additional"]
    return Outcome(True, res.han or 0, res.fu or 0, points, cost["total"], frozenset(yaku))


def _yakuman_pinfu_shape_fu(case: Case, ours: Outcome, theirs: Outcome) -> bool:
    """A yakuman (chiihou, tenhou) whose reading has the pinfu shape, won by tsumo: mahjong
    reports pinfu-tsumo 20 fu, Agari 30 (20 + tsumo 2, rounded), because pinfu is not among
    a yakuman hand's yaku. Fu never change a yakuman's payment, so the points agree.
    Tested in ``test_mahjong_differential.py::test_known_yakuman_pinfu_shape_fu``."""
    return (
        ours.ok
        and theirs.ok
        and all(h == 13 for _, h in ours.yaku)
        and (ours.han, ours.points, ours.yaku) == (theirs.han, theirs.points, theirs.yaku)
        and (ours.fu, theirs.fu) == (30, 20)
        and case.config["is_tsumo"]
    )


#: Documented differences, by name: each a test on the case and both outcomes.
KNOWN = {"yakuman_pinfu_shape_fu": _yakuman_pinfu_shape_fu}


def known_difference(case: Case, ours: Outcome, theirs: Outcome) -> str | None:
    """The name of a documented difference that explains a disagreement, or None."""
    for name, test in KNOWN.items():
        if test(case, ours, theirs):
            return name
    return None


def compare(case: Case) -> tuple[Outcome, Outcome, str | None]:
    """Both outcomes and, when they differ, the documented reason (or None: unexplained)."""
    ours, theirs = agari_outcome(case), mahjong_outcome(case)
    if ours == theirs or (not ours.ok and not theirs.ok):
        return ours, theirs, None
    return ours, theirs, known_difference(case, ours, theirs) or "UNEXPLAINED"
