"""The generator's labels: valid, complete, consistent with the truth JSON, reproducible."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.art import find_cjk_font, load_styles
from datasets.classes import CLASS_NAMES, class_id
from datasets.hands import LaidHand, LaidMeld, is_winning_shape
from datasets.synth import HAND_ROLES, generate, parse_size, render_sample
from datasets.yolo import read_label_lines
from scoring.errors import RequestError
from tests.conftest import shared_path

SMALL = (320, 416)
N = 24


@pytest.fixture(scope="module")
def drawn_styles():
    return load_styles(None)


@pytest.fixture(scope="module")
def samples(drawn_styles):
    return [render_sample(77, i, SMALL, drawn_styles) for i in range(N)]


def test_boxes_inside_image_and_labels_match_truth(samples) -> None:
    for s in samples:
        w, h = s.truth["width"], s.truth["height"]
        img = cv2.imdecode(np.frombuffer(s.jpeg, np.uint8), cv2.IMREAD_COLOR)
        assert img.shape[:2] == (h, w)
        labelled = [t for t in s.truth["tiles"] if t["labelled"]]
        lines = read_label_lines(s.labels, w, h)
        assert len(lines) == len(labelled) > 0
        for (cls, box), t in zip(lines, labelled, strict=True):
            assert CLASS_NAMES[cls] == t["class"]
            assert np.allclose(box, t["box"], atol=0.01)
        for t in s.truth["tiles"]:
            x0, y0, x1, y1 = t["box"]
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h, t


def test_classes_are_the_tiles_or_back(samples) -> None:
    for s in samples:
        for t in s.truth["tiles"]:
            class_id(t["class"])
            if t["class"] == "back":
                continue
            assert t["class"] == t["tile"]
            assert not t["face_down"]


def test_every_visible_hand_tile_is_boxed_in_reading_order(samples) -> None:
    """The labelled hand tiles, read by their laid order, are exactly hand_tiles_seen."""
    complete = 0
    for s in samples:
        truth = s.truth
        if not truth["hand_fully_visible"]:
            continue
        complete += 1
        hand = sorted(
            (t for t in truth["tiles"] if t["role"] in HAND_ROLES), key=lambda t: t["order"]
        )
        assert all(t["labelled"] for t in hand)
        assert len(hand) == len(truth["hand_tiles"])
        seen = [t["class"] for t in hand]
        expect = ["back" if x == "x" else x.replace("'", "") for x in truth["hand_tiles_seen"]]
        assert seen == expect
        sideways = [t for t in hand if t["sideways"]]
        assert len(sideways) == sum(x.count("'") for x in truth["hand_tiles_seen"]) + sum(
            1 for t in hand if t["role"] == "win" and t["sideways"]
        )
    assert complete >= N // 2


def test_truth_hand_is_a_win_and_matches_its_tiles(samples) -> None:
    for s in samples:
        h = s.truth["hand"]
        melds = tuple(
            LaidMeld(
                m["kind"], tuple(f"{d}{m['tiles'][-1]}" for d in m["tiles"][:-1]), m.get("from")
            )
            for m in h["melds"]
        )
        closed = [f"{d}{g[-1]}" for g in _groups(h["closed"]) for d in g[:-1]]
        laid = LaidHand(tuple(closed), h["win_tile"], melds)
        assert is_winning_shape(laid)
        assert sorted(laid.all_tiles()) == sorted(s.truth["hand_tiles"])


def _groups(mpsz: str) -> list[str]:
    out, cur = [], ""
    for ch in mpsz:
        cur += ch
        if ch in "mpsz":
            out.append(cur)
            cur = ""
    return out


def test_meld_source_shows_in_the_sideways_tile(samples) -> None:
    for s in samples:
        truth = s.truth
        if not truth["hand_fully_visible"]:
            continue
        for mi, meld in enumerate(truth["hand"]["melds"]):
            tiles = sorted((t for t in truth["tiles"] if t["meld"] == mi), key=lambda t: t["order"])
            flags = [t["sideways"] for t in tiles]
            src = meld.get("from")
            if meld["kind"] == "ankan":
                assert not any(flags) and sum(t["face_down"] for t in tiles) == 2
            elif meld["kind"] in ("chi", "pon", "daiminkan"):
                pos = flags.index(True)
                assert sum(flags) == 1
                assert (
                    pos == 0
                    if src == "left"
                    else pos == len(tiles) - 1
                    if src == "right"
                    else 0 < pos < len(tiles) - 1
                )
            else:  # kakan: two sideways, the added one beside the called
                assert sum(flags) == 2


def test_same_seed_same_bytes_whatever_the_workers(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    generate(a, 4, seed=9, size="256-320", art=None, workers=1, val_fraction=0.5)
    generate(b, 4, seed=9, size="256-320", art=None, workers=2, val_fraction=0.5)
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file() and p.name != "data.yaml")
    assert len(files) == 4 * 3 + 1
    for rel in files:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel
    c = tmp_path / "c"
    generate(c, 1, seed=10, size="256-320", art=None, workers=1)
    first = sorted(a.rglob("synth_s9_000000.jpg"))[0].read_bytes()
    assert first != (c / "images/train/synth_s10_000000.jpg").read_bytes()


def test_dataset_layout_and_data_yaml(tmp_path: Path) -> None:
    generate(tmp_path, 6, seed=3, size="256", art=None, workers=1, val_fraction=0.5)
    text = (tmp_path / "data.yaml").read_text()
    assert "nc: 38" in text and "train: images/train" in text and "val: images/val" in text
    for i, name in enumerate(CLASS_NAMES):
        assert f"  {i}: '{name}'" in text
    for img in tmp_path.rglob("*.jpg"):
        split = img.parent.name
        label = tmp_path / "labels" / split / (img.stem + ".txt")
        truth = json.loads((tmp_path / "truth" / split / (img.stem + ".json")).read_text())
        assert label.exists() and truth["image"] == img.name


def test_fluffystuff_styles_from_the_shared_art() -> None:
    art = shared_path("data", "tile-art")
    styles = load_styles(str(art))
    names = [s.name for s in styles]
    assert sum(n.startswith("art-") for n in names) >= 2
    for style in styles:
        assert len(style.faces) == 37
        red, plain = style.faces["0p"][0], style.faces["5p"][0]
        assert red.shape == plain.shape and not np.array_equal(red, plain)


def test_drawn_style_uses_a_cjk_font_when_installed() -> None:
    font = find_cjk_font()
    if font is None:
        pytest.skip(
            "no CJK font on disk (apt-get install fonts-wqy-zenhei); Hershey faces are used"
        )
    assert any("cjk" in s.name for s in load_styles(None))


def test_bad_inputs_raise_coded_errors(tmp_path: Path) -> None:
    with pytest.raises(RequestError) as err:
        parse_size("big")
    assert err.value.code == "bad_size"
    with pytest.raises(RequestError) as err:
        load_styles(str(tmp_path / "nope"))
    assert err.value.code == "bad_art"
    with pytest.raises(RequestError) as err:
        generate(tmp_path, 1, val_fraction=1.5)
    assert err.value.code == "bad_split"
    for kwargs, code in (({"count": 0}, "bad_count"), ({"count": 1, "workers": -1}, "bad_workers")):
        with pytest.raises(RequestError) as err:
            generate(tmp_path, **kwargs)
        assert err.value.code == code
    assert not any(tmp_path.iterdir())


def test_cli_generate(tmp_path: Path) -> None:
    from webapp.cli import main

    assert (
        main(
            ["generate", "--out", str(tmp_path), "--count", "2", "--size", "256", "--workers", "1"]
        )
        == 0
    )
    assert len(list((tmp_path / "images" / "train").glob("*.jpg"))) == 2
