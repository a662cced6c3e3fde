from __future__ import annotations

import pytest

from scoring.divide import divide, is_chiitoitsu, is_kokushi
from scoring.errors import NotationError
from scoring.notation import format_tiles, parse_tiles
from scoring.tiles import NUM_KINDS, Tile, counts_of, dora_from_indicator, kind_name

ALL_NAMES = [kind_name(k) for k in range(NUM_KINDS)]


@pytest.mark.parametrize("name", [*ALL_NAMES, "0m", "0p", "0s"])
def test_tile_round_trip(name: str) -> None:
    assert str(Tile.parse(name)) == name
    assert eval(repr(Tile.parse(name))) == Tile.parse(name)


def test_hand_round_trip() -> None:
    text = "123m406p789s1234567z"
    assert format_tiles(parse_tiles(text)) == text


@pytest.mark.parametrize("bad", ["", "1", "m", "8z", "0z", "12x", "1m2", "ab", "10z"])
def test_malformed_tiles_raise(bad: str) -> None:
    with pytest.raises(NotationError):
        if bad == "":
            Tile.parse(bad)
        else:
            parse_tiles(bad) if len(bad) > 2 else Tile.parse(bad)


@pytest.mark.parametrize(
    ("indicator", "dora"),
    [
        ("9m", "1m"),
        ("1p", "2p"),
        ("9s", "1s"),
        ("4z", "1z"),
        ("1z", "2z"),
        ("7z", "5z"),
        ("5z", "6z"),
    ],
)
def test_dora_wraps(indicator: str, dora: str) -> None:
    assert kind_name(dora_from_indicator(Tile.parse(indicator).kind)) == dora


def test_divide_finds_every_reading() -> None:
    counts = counts_of(parse_tiles("111222333m11p"))
    readings = divide(counts)
    assert len(readings) == 2
    assert {tuple(b.is_run for b in d.blocks) for d in readings} == {(False,) * 3, (True,) * 3}


def test_divide_rejects_incomplete() -> None:
    assert divide(counts_of(parse_tiles("123m456p789s1234z"))) == ()


def test_special_shapes() -> None:
    assert is_chiitoitsu(counts_of(parse_tiles("1122m3344p5566s77z")))
    assert not is_chiitoitsu(counts_of(parse_tiles("1111m3344p5566s77z")))
    assert is_kokushi(counts_of(parse_tiles("19m19p19s12345677z")))
