"""Every notation has a parser and an exact printer: round trips and malformed input."""

from __future__ import annotations

import pytest

from scoring.errors import NotationError
from scoring.hand import Hand, Meld, format_hand, parse_hand
from scoring.notation import (
    format_mjai,
    format_tenhou_136,
    format_tiles,
    format_unicode,
    parse_mjai,
    parse_tenhou_136,
    parse_tiles,
    parse_unicode,
)
from scoring.tiles import Tile

ALL_TILES = [Tile(k) for k in range(34)] + [Tile(4, True), Tile(13, True), Tile(22, True)]


@pytest.mark.parametrize("tile", ALL_TILES, ids=str)
def test_round_trip_every_tile(tile: Tile) -> None:
    assert parse_tiles(format_tiles([tile])) == (tile,)
    assert parse_mjai(format_mjai(tile)) == tile
    assert parse_unicode(format_unicode([tile])) == (tile,)
    assert parse_tenhou_136(format_tenhou_136([tile])) == (tile,)


def test_round_trip_whole_hands() -> None:
    tiles = parse_tiles("123m406p789s1234567z")
    assert format_tiles(tiles) == "123m406p789s1234567z"
    assert parse_unicode(format_unicode(tiles)) == tiles
    assert parse_tenhou_136(format_tenhou_136(tiles)) == tiles
    assert tuple(parse_mjai(format_mjai(t)) for t in tiles) == tiles


def test_tenhou_red_ids_only_in_red_lobbies() -> None:
    assert str(parse_tenhou_136([16])[0]) == "0m"
    assert str(parse_tenhou_136([16], red=False)[0]) == "5m"


@pytest.mark.parametrize(
    ("kind", "tiles", "frm"),
    [
        ("chi", "406p", "left"),
        ("pon", "555z", "across"),
        ("daiminkan", "5550s", "right"),
        ("kakan", "1111m", "left"),
        ("ankan", "7777z", None),
    ],
)
def test_meld_round_trip(kind: str, tiles: str, frm: str | None) -> None:
    m = Meld.parse(kind, tiles, frm)
    assert eval(repr(m)) == m  # repr is the parse call
    assert m.is_open == (kind != "ankan")


@pytest.mark.parametrize(
    "text",
    ["1", "m", "1x", "8z", "0z", "12", "m1", "１m", "1m 2"],
)
def test_malformed_mpsz(text: str) -> None:
    with pytest.raises(NotationError):
        parse_tiles(text)


@pytest.mark.parametrize("name", ["5z", "6mr", "X", "5", "10m", ""])
def test_malformed_mjai(name: str) -> None:
    with pytest.raises(NotationError):
        parse_mjai(name)


@pytest.mark.parametrize("text", ["a", "r", "\U0001f007r", "\U0001f00br\u0072"])
def test_malformed_unicode(text: str) -> None:
    with pytest.raises(NotationError):
        parse_unicode(text)


@pytest.mark.parametrize("ids", [[136], [-1], [True]])
def test_malformed_tenhou_ids(ids: list[int]) -> None:
    with pytest.raises(NotationError):
        parse_tenhou_136(ids)


def test_fifth_copy_has_no_tenhou_id() -> None:
    with pytest.raises(NotationError):
        format_tenhou_136(parse_tiles("11111m"))


@pytest.mark.parametrize(
    "text",
    [
        "234m406p78s11z+9s pon:555z@left",
        "123m+9s ankan:1111z daiminkan:2222p@across kakan:0555s@right",
        "1112345678999m+5m",
        "406p+0p chi:067s@left pon:777z@right kakan:1111m@across",
    ],
)
def test_hand_round_trip(text: str) -> None:
    hand = parse_hand(text)
    assert format_hand(hand) == text
    assert repr(hand) == f"Hand.parse({text!r})"
    assert Hand.parse(str(hand)) == hand


@pytest.mark.parametrize(
    "text",
    ["123m", "123m+", "123m+9s pon:555z@", "123m+9s chi:135m@left", "+10z", "1m+2m chi:123m"],
)
def test_malformed_hand(text: str) -> None:
    with pytest.raises(NotationError):
        parse_hand(text)


@pytest.mark.parametrize(
    "typed",
    [
        "234m 406p 78s 11z+9s pon:555z@left",  # spaces between groups
        "234M406P78S11Z+9S PON:555Z@LEFT",  # upper case
        "234m406p78s11z + 9s  pon:555z@left",  # spaces around '+' and between calls
        "234m406p78s11z+9s, pon:555z@left",  # a comma before a call
    ],
)
def test_the_ways_people_type_a_hand_read_alike(typed: str) -> None:
    assert parse_hand(typed) == parse_hand("234m406p78s11z+9s pon:555z@left")


@pytest.mark.parametrize(
    ("typed", "hint"),
    [
        ("234m406p78s11z9s", "put '+' before the winning tile"),
        ("234m406p78sEE+9s", "e is no tile"),
        ("234m406p78s11z+9s kan:5555z@left", "daiminkan"),
        ("234m406p78s+9s pon:555z", "@left, @across, @right"),
        ("234m406p78s+9s ankan:5555z@left", "no @ in the notation"),
        ("234m406p78s+9s ankan:555z", "an ankan has 4 tiles"),
    ],
)
def test_a_hand_that_does_not_read_says_what_to_change(typed: str, hint: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_hand(typed)
    assert hint in err.value.message
