"""The situation of a win, kept apart from the rules and the tiles.

:class:`WinContext` holds how the hand was won (tsumo or ron), the winds and the special
flags (riichi, ippatsu, haitei, ...). :meth:`WinContext.validate` raises
:class:`~scoring.errors.InvalidHandError` with a stable code for every contradiction
a referee would reject (the checklist of mahjong's ``HandConfig`` errors, raised here).
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.errors import InvalidHandError
from scoring.hand import Meld
from scoring.request import ScoreRequest
from scoring.ruleset import Ruleset
from scoring.tiles import wind_kind


@dataclass(frozen=True, slots=True)
class WinContext:
    """How one hand was won. Winds are honour kinds (27 = east ... 30 = north)."""

    is_tsumo: bool
    seat_wind: int
    round_wind: int
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind == 27

    @property
    def any_riichi(self) -> bool:
        return self.riichi or self.double_riichi

    @classmethod
    def from_request(cls, req: ScoreRequest) -> WinContext:
        f = req.flags
        return cls(
            is_tsumo=req.is_tsumo,
            seat_wind=wind_kind(req.seat_wind),
            round_wind=wind_kind(req.round_wind),
            riichi="riichi" in f,
            double_riichi="double_riichi" in f,
            ippatsu="ippatsu" in f,
            haitei="haitei" in f,
            houtei="houtei" in f,
            rinshan="rinshan" in f,
            chankan="chankan" in f,
            tenhou="tenhou" in f,
            chiihou="chiihou" in f,
            renhou="renhou" in f,
        )

    def validate(self, ruleset: Ruleset, melds: tuple[Meld, ...] = ()) -> None:
        """Raise :class:`InvalidHandError` if this situation cannot happen with these melds.

        >>> WinContext(is_tsumo=True, seat_wind=27, round_wind=27, chankan=True).validate(
        ...     Ruleset(id="x", name="x"))
        Traceback (most recent call last):
        ...
        scoring.errors.InvalidHandError: chankan robs a kan being added: it is always a ron
        """
        is_open = any(m.is_open for m in melds)
        has_kan = any(m.is_kan for m in melds)

        def bad(code: str, message: str) -> InvalidHandError:
            return InvalidHandError(message, code=code)

        if self.riichi and self.double_riichi:
            raise bad("riichi_and_double_riichi", "give double_riichi instead of riichi, not both")
        if self.any_riichi and is_open:
            raise bad("riichi_open_hand", "riichi needs a closed hand, but the hand has calls")
        if self.ippatsu and not self.any_riichi:
            raise bad("ippatsu_without_riichi", "ippatsu needs riichi (or double riichi)")
        if self.chankan and self.is_tsumo:
            raise bad("chankan_on_tsumo", "chankan robs a kan being added: it is always a ron")
        if self.rinshan and not self.is_tsumo:
            raise bad("rinshan_on_ron", "rinshan kaihou is a tsumo on the replacement tile")
        if self.rinshan and not has_kan:
            raise bad("rinshan_without_kan", "rinshan kaihou needs a kan among the melds")
        if self.haitei and not self.is_tsumo:
            raise bad("haitei_on_ron", "haitei is a tsumo on the last tile; a ron there is houtei")
        if self.houtei and self.is_tsumo:
            raise bad("houtei_on_tsumo", "houtei is a ron on the last discard; tsumo is haitei")
        if self.ippatsu and self.rinshan:
            raise bad(
                "ippatsu_and_rinshan",
                "a kan after riichi ends the ippatsu chance, so rinshan cannot be ippatsu",
            )
        if self.haitei and self.rinshan:
            raise bad("haitei_and_rinshan", "a replacement tile after a kan is not the last draw")
        if self.chankan and self.houtei:
            raise bad("chankan_and_houtei", "a robbed kan is not the last discard")
        for flag in ("tenhou", "chiihou", "renhou"):
            if getattr(self, flag) and melds:
                raise bad(f"{flag}_with_melds", f"{flag} happens before any call or kan")
        if self.tenhou and not (self.is_dealer and self.is_tsumo):
            raise bad("tenhou_not_dealer_tsumo", "tenhou is the dealer's tsumo on the first draw")
        if self.chiihou and (self.is_dealer or not self.is_tsumo):
            raise bad(
                "chiihou_not_nondealer_tsumo", "chiihou is a non-dealer's tsumo on the first draw"
            )
        if self.renhou and (self.is_dealer or self.is_tsumo):
            raise bad(
                "renhou_not_nondealer_ron",
                "renhou is a non-dealer's ron before their first draw",
            )
        if (self.tenhou or self.chiihou or self.renhou) and self.any_riichi:
            raise bad("first_turn_win_with_riichi", "a first-turn win comes before any riichi")


__all__ = ["WinContext"]
