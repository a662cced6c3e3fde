"""Every kan turns a new dora indicator, so a hand with kans and too few indicators given
has most likely lost one (a photo that cut it off, a tile not entered): warned
``kan_dora_missing``, scored as given. The real Tenhou wins never raise it
(``test_tenhou_corpus``), rinshan wins after an open kan included."""

from __future__ import annotations

import pytest

from tests.scoring.riichi_builders import score, yaku_of

A = "across"


def codes(res: dict) -> list[str]:
    return [w["code"] for w in res["warnings"]]


def test_a_kan_with_only_the_first_indicator_is_warned_and_scored_as_given() -> None:
    res = score("555z123m567m9s", "9s", melds=(("daiminkan", "3333s", A),), dora=("2s",))
    assert "kan_dora_missing" in codes(res)
    assert yaku_of(res).get("dora") == 4  # the given indicator still counts


def test_one_indicator_per_kan_beside_the_first_is_quiet() -> None:
    res = score("555z123m567m9s", "9s", melds=(("daiminkan", "3333s", A),), dora=("2s", "1z"))
    assert "kan_dora_missing" not in codes(res)


def test_two_kans_need_three_indicators() -> None:
    melds = (("daiminkan", "3333s", A), ("ankan", "2222p", None))
    res = score("555z123m9s", "9s", melds=melds, dora=("2s", "1z"))
    assert "kan_dora_missing" in codes(res)


@pytest.mark.parametrize(
    ("kind", "tiles", "frm", "warned"),
    [
        # An open kan's indicator is turned after the replacement tile's discard (Tenhou):
        # winning on that tile shows it not yet.
        ("daiminkan", "3333s", A, False),
        ("kakan", "3333s", A, False),
        # A closed kan's indicator is turned at once.
        ("ankan", "3333s", None, True),
    ],
)
def test_rinshan_after_an_open_kan_may_show_one_fewer(
    kind: str, tiles: str, frm: str | None, warned: bool
) -> None:
    res = score(
        "123m567m678p9s",
        "9s",
        win="tsumo",
        melds=((kind, tiles, frm),),
        flags=("rinshan",),
        dora=("1z",),
    )
    assert ("kan_dora_missing" in codes(res)) is warned


def test_no_warning_where_the_ruleset_has_no_kan_dora() -> None:
    res = score(
        "555z123m567m9s",
        "9s",
        melds=(("daiminkan", "3333s", A),),
        dora=("2s",),
        ruleset="jpml-a",
    )
    assert "kan_dora_missing" not in codes(res)


def test_no_indicator_given_is_not_this_warning() -> None:
    # Dora left out altogether is the caller's choice (the photo path warns on its own).
    res = score("555z123m567m9s", "9s", melds=(("daiminkan", "3333s", A),))
    assert "kan_dora_missing" not in codes(res)
