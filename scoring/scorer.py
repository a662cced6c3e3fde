"""The scorer: every reading of the hand, its yaku, fu and value; the best one wins.

:func:`score_request` takes a validated :class:`~scoring.request.ScoreRequest` and returns
a :class:`ScoreResult`. The chosen reading is the one worth the most: highest basic points
(what is actually paid), then han, then fu; every other reading is returned in
``alternatives`` with the reason it loses.

Raises :class:`~scoring.errors.InvalidHandError` (contradictory situation),
:class:`~scoring.errors.NotAWinError` (no complete reading) and
:class:`~scoring.errors.NoYakuError` (complete, but no yaku or below ``min_han``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.context import WinContext
from scoring.errors import InvalidHandError, NotAWinError, NoYakuError
from scoring.fu import FuItems, fu_of
from scoring.notation import format_tiles
from scoring.payments import SEATS, payout
from scoring.points import LIMIT_BASE, Limit, base_points
from scoring.reading import Reading, readings
from scoring.request import ScoreRequest
from scoring.ruleset import Ruleset
from scoring.tiles import NUM_KINDS, dora_from_indicator
from scoring.yaku import YAKUMAN_HAN, evaluate

Yaku = tuple[tuple[str, int], ...]
Warnings = list[tuple[str, str]]
NAGASHI_READING = "nagashi mangan: every discard a terminal or honour, none called"


@dataclass(frozen=True, slots=True)
class Alternative:
    """A reading that was not chosen, and why."""

    reading: str
    han: int
    fu: int
    basic_points: int
    yaku: Yaku
    why: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "reading": self.reading,
            "han": self.han,
            "fu": self.fu,
            "basic_points": self.basic_points,
            "yaku": [{"id": i, "han": h} for i, h in self.yaku],
            "why": self.why,
        }


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """The score of one win (CONTRACT.md response, plus ``reading`` and ``announce``)."""

    han: int
    fu: int
    limit: Limit | None
    yakuman: int
    yaku: Yaku
    fu_details: FuItems
    points: int
    deltas: tuple[int, int, int, int]
    announce: str
    #: The chosen reading (``None`` for nagashi mangan); described in ``to_dict``.
    reading: Reading | None
    alternatives: tuple[Alternative, ...] = ()
    #: ``(code, message)``: what was assumed or ignored.
    warnings: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        fu_details = []
        for reason, fu in self.fu_details:
            code, _, tiles = reason.partition(" ")
            item: dict[str, Any] = {"fu": fu, "reason": code}
            if tiles:
                item["tiles"] = tiles
            fu_details.append(item)
        return {
            "han": self.han,
            "fu": self.fu,
            "limit": self.limit,
            "yakuman": self.yakuman,
            "yaku": [{"id": i, "han": h} for i, h in self.yaku],
            "fu_details": fu_details,
            "points": self.points,
            "deltas": dict(zip(SEATS, self.deltas, strict=True)),
            "announce": self.announce,
            "reading": NAGASHI_READING if self.reading is None else self.reading.describe(),
            "alternatives": [a.to_dict() for a in self.alternatives],
            "warnings": [{"code": c, "message": m} for c, m in self.warnings],
        }


@dataclass(frozen=True, slots=True)
class _Scored:
    reading: Reading
    yaku: Yaku
    han: int  # yaku han, dora excluded; 13 per yakuman unit
    yakuman: int
    fu: int
    fu_items: FuItems
    total_han: int
    base: int
    limit: Limit | None

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.base, self.total_han, self.fu)


def _fewest_indicators(req: ScoreRequest) -> int:
    """The dora indicators the table shows at least: the first, and one more for each of the
    winner's kans (other players' kans add more, unseen here). An open kan's indicator is
    turned only after its replacement tile is discarded in some rules (Tenhou), so a win on
    that tile (rinshan) may not show it yet: all 11 such wins among the Tenhou corpus's
    kan hands show one indicator fewer, and no other win does (the test on the corpus)."""
    kans = sum(m.is_kan for m in req.melds)
    open_kan = any(m.is_kan and m.is_open for m in req.melds)
    return 1 + kans - int("rinshan" in req.flags and open_kan)


def _dora(req: ScoreRequest, ctx: WinContext, rs: Ruleset, warnings: Warnings) -> Yaku:
    """Dora, ura dora and red fives as ``(id, han)`` items (han > 0 only)."""
    counts = [0] * NUM_KINDS
    reds = 0
    for t in req.all_tiles:
        counts[t.kind] += 1
        reds += t.red
    out: list[tuple[str, int]] = []
    if rs.dora and req.dora_indicators:
        indicators = req.dora_indicators
        fewest = _fewest_indicators(req)
        if rs.kan_dora and len(indicators) < fewest:
            warnings.append(
                (
                    "kan_dora_missing",
                    f"the hand's own kans turned at least {fewest} dora indicators, only "
                    f"{len(indicators)} given: a kan dora indicator may be missing",
                )
            )
        if not rs.kan_dora and len(indicators) > 1:
            warnings.append(
                ("kan_dora_ignored", f"ruleset {rs.id!r} has no kan dora: only the first counts")
            )
            indicators = indicators[:1]
        n = sum(counts[dora_from_indicator(t.kind)] for t in indicators)
        if n:
            out.append(("dora", n))
    if req.ura_indicators:
        if not ctx.any_riichi:
            warnings.append(
                ("ura_ignored", "ura dora indicators ignored: the winner is not in riichi")
            )
        elif not rs.ura_dora:
            warnings.append(("ura_ignored", f"ruleset {rs.id!r} has no ura dora"))
        else:
            ura = req.ura_indicators if rs.kan_ura_dora else req.ura_indicators[:1]
            n = sum(counts[dora_from_indicator(t.kind)] for t in ura)
            if n:
                out.append(("ura_dora", n))
    if reds:
        out.append(("aka_dora", reds))
    return tuple(out)


def _score_reading(
    r: Reading, ctx: WinContext, rs: Ruleset, dora: Yaku, dora_han: int
) -> _Scored | None:
    found, units = evaluate(r, ctx, rs)
    if not found:
        return None
    han = sum(h for _, h in found)
    is_pinfu = any(i == "pinfu" for i, _ in found)
    fu, items = fu_of(r, ctx, rs, is_pinfu)
    if units:
        base, limit = base_points(han, fu, units, rs)
        return _Scored(r, tuple(found), han, units, fu, items, han, base, limit)
    if han < rs.min_han:
        return None
    total = han + dora_han
    base, limit = base_points(total, fu, 0, rs)
    return _Scored(r, tuple(found) + dora, han, 0, fu, items, total, base, limit)


def _why(best: _Scored, other: _Scored) -> str:
    if other.base != best.base:
        return f"pays less: {other.base} basic points against {best.base}"
    if other.total_han != best.total_han:
        return f"fewer han at the same value: {other.total_han} against {best.total_han}"
    if other.fu != best.fu:
        return f"fewer fu at the same value: {other.fu} against {best.fu}"
    return "same value; an earlier reading was kept"


def _renhou_fixed(
    ctx: WinContext, rs: Ruleset, best: _Scored | None, first: Reading
) -> _Scored | None:
    """Renhou worth a fixed limit (mangan/baiman): it replaces the hand when worth more,
    and is a win on its own when the hand has no other yaku."""
    if not ctx.renhou or rs.renhou not in ("mangan", "baiman"):
        return best
    limit: Limit = "mangan" if rs.renhou == "mangan" else "baiman"
    base = LIMIT_BASE[limit]
    if best is not None and (best.yakuman or best.base >= base):
        return best
    reading = first if best is None else best.reading
    fu, items = fu_of(reading, ctx, rs, False) if best is None else (best.fu, best.fu_items)
    han = 5 if limit == "mangan" else 8
    return _Scored(reading, (("renhou", han),), han, 0, fu, items, han, base, limit)


def _nagashi(req: ScoreRequest, ctx: WinContext, warnings: Warnings) -> ScoreResult:
    rs = req.ruleset
    if not rs.nagashi_mangan:
        raise InvalidHandError(
            f"ruleset {rs.id!r} has no nagashi mangan", code="nagashi_not_in_ruleset"
        )
    if not req.is_tsumo:
        raise InvalidHandError("nagashi mangan is paid like a tsumo", code="nagashi_on_ron")
    honba, sticks = req.honba, req.riichi_sticks
    if rs.game.nagashi_settlement == "draw" and (honba or sticks):
        # Settled as a draw (Tenhou): the counters and sticks stay on the table, as the game
        # replay leaves them (scoring.game), rather than going to the nagashi player.
        honba, sticks = 0, 0
        warnings.append(
            (
                "nagashi_as_draw",
                f"nagashi mangan settles as a draw under {rs.id!r}: the honba and riichi "
                f"sticks stay on the table ({rs.source_of('game.nagashi_settlement')})",
            )
        )
    pay = payout(
        LIMIT_BASE["mangan"],
        winner=req.seat_wind,
        tsumo=True,
        discarder=None,
        honba=honba,
        riichi_sticks=sticks,
        rs=rs,
    )
    return ScoreResult(
        han=5,
        fu=0,
        limit="mangan",
        yakuman=0,
        yaku=(("nagashi_mangan", 5),),
        fu_details=(),
        points=pay.points,
        deltas=pay.deltas,
        announce=pay.announce,
        reading=None,
        warnings=tuple(warnings),
    )


def score_request(req: ScoreRequest, *, alternatives: bool = True) -> ScoreResult:
    """Score one validated request. See the module docstring for what it raises."""
    rs = req.ruleset
    ctx = WinContext.from_request(req)
    ctx.validate(rs, req.melds)
    warnings: Warnings = [("assumed", w) for w in req.warnings]
    if ctx.ippatsu and not rs.ippatsu:
        warnings.append(("ippatsu_ignored", f"ruleset {rs.id!r} has no ippatsu; flag ignored"))
    if ctx.renhou and rs.renhou == "none":
        warnings.append(("renhou_ignored", f"ruleset {rs.id!r} has no renhou; flag ignored"))
    if req.is_nagashi:
        return _nagashi(req, ctx, warnings)
    win_tile = req.win_tile
    if win_tile is None:  # check_tile_counts already refuses this; kept for direct callers
        raise InvalidHandError("win_tile is missing", code="missing_win_tile")
    closed = [0] * NUM_KINDS
    for t in req.closed:
        closed[t.kind] += 1
    found = readings(tuple(closed), win_tile.kind, req.melds, req.is_tsumo)
    if not found:
        raise NotAWinError(
            f"not a complete hand: {format_tiles(req.closed, sort=True)} + {win_tile} "
            f"with {len(req.melds)} meld(s) has no reading as four sets and a pair, "
            "seven pairs or kokushi",
            code="not_a_win",
        )
    dora = _dora(req, ctx, rs, warnings)
    dora_han = sum(h for _, h in dora)
    scored: list[_Scored] = []
    no_yaku: list[Reading] = []
    for r in found:
        s = _score_reading(r, ctx, rs, dora, dora_han)
        if s is None:
            no_yaku.append(r)
        else:
            scored.append(s)
    best = max(scored, key=lambda s: s.key) if scored else None
    best = _renhou_fixed(ctx, rs, best, found[0])
    if best is None:
        if rs.min_han > 1:
            raise NoYakuError(
                f"the hand has fewer than {rs.min_han} han of yaku (dora do not count)",
                code="below_min_han",
            )
        raise NoYakuError(
            "the hand is complete but has no yaku (dora alone do not make a win)",
            code="no_yaku",
        )
    if ctx.chankan and best.reading.shape == "kokushi" and not rs.chankan_ankan_kokushi:
        # A request does not say which kind of kan was robbed; under this rule only an added
        # kan can be, by kokushi as by any hand (a closed kan, which kokushi alone may rob
        # elsewhere, cannot): say so rather than pass the win in silence.
        warnings.append(
            (
                "chankan_closed_kan",
                f"ruleset {rs.id!r} lets no hand rob a closed kan, kokushi included: this win "
                "stands only if the kan robbed was an added one (kakan)",
            )
        )
    pao_base = _liable_base(req, ctx, best, warnings)
    pay = payout(
        best.base,
        winner=req.seat_wind,
        tsumo=req.is_tsumo,
        discarder=req.discarder,
        honba=req.honba,
        riichi_sticks=req.riichi_sticks,
        rs=rs,
        pao=req.pao,
        pao_base=pao_base,
    )
    alts: tuple[Alternative, ...] = ()
    if alternatives and len(found) > 1:
        alts = _alternatives(best, scored, no_yaku)
    return ScoreResult(
        han=best.total_han,
        fu=best.fu,
        limit=best.limit,
        yakuman=best.yakuman,
        yaku=best.yaku,
        fu_details=best.fu_items,
        points=pay.points,
        deltas=pay.deltas,
        announce=pay.announce,
        reading=best.reading,
        alternatives=alts,
        warnings=tuple(warnings),
    )


def _liable_base(req: ScoreRequest, ctx: WinContext, best: _Scored, warnings: Warnings) -> int:
    """The part of the basic points the ``pao`` seat is liable for (0: none).

    The yakuman listed in ``Ruleset.pao`` (each unit 8000); or, with
    ``Ruleset.pao_rinshan_daiminkan``, the whole hand of a rinshan win after an open kan
    (the kan's discarder pays as if dealing in).
    """
    rs = req.ruleset
    if req.pao is None:
        return 0
    units = sum(h for i, h in best.yaku if i in rs.pao) // YAKUMAN_HAN if best.yakuman else 0
    if units:
        return 8000 * units
    daiminkan = any(m.kind == "daiminkan" for m in req.melds)
    if rs.pao_rinshan_daiminkan and ctx.rinshan and daiminkan:
        return best.base
    why = f"pao {req.pao} ignored: no yakuman of {list(rs.pao)} in the hand"
    if rs.pao_rinshan_daiminkan:
        why += " and no rinshan after an open kan"
    warnings.append(("pao_ignored", why))
    return 0


def _alternatives(
    best: _Scored, scored: list[_Scored], no_yaku: list[Reading]
) -> tuple[Alternative, ...]:
    out: list[Alternative] = []
    seen = {best.reading.describe()}
    for s in sorted(scored, key=lambda s: s.key, reverse=True):
        text = s.reading.describe()
        if text in seen:
            continue
        seen.add(text)
        out.append(Alternative(text, s.total_han, s.fu, s.base, s.yaku, _why(best, s)))
    for r in no_yaku:
        text = r.describe()
        if text not in seen:
            seen.add(text)
            out.append(Alternative(text, 0, 0, 0, (), "no yaku in this reading"))
    return tuple(out)


__all__ = ["Alternative", "ScoreResult", "score_request"]
