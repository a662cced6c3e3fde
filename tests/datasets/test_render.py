"""Geometry of the renderer on hand-built scenes: boxes where the tiles are, occlusion, flags."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.art import load_styles
from datasets.camera import Camera
from datasets.hands import LaidHand
from datasets.render import Renderer, random_look
from datasets.scene import Block, Scene, rot_z

SIZE = (26.0, 35.0, 20.0)


def _scene(blocks: list[Block]) -> Scene:
    hand = LaidHand(("1m",), "1m", ())
    focus = np.array([b.t for b in blocks])
    return Scene(blocks, hand, SIZE, 450.0, 0.0, focus, False)


def _render(blocks: list[Block], *, azimuth: float = 0.0, elevation: float = 89.0):
    rng = np.random.default_rng(0)
    cam = Camera.look_at(
        np.array([0.0, 0.0, 0.0]),
        distance=400,
        elevation_deg=elevation,
        azimuth_deg=azimuth,
        roll_deg=0,
        hfov_deg=60,
        width=640,
        height=480,
    )
    r = Renderer(cam, random_look(load_styles(None), rng), rng)
    img = r.table(_scene(blocks))
    r.draw(img, _scene(blocks))
    r.measure()
    return cam, r


def _flat(tile: str, x: float, y: float = 0.0, *, yaw: float = 0.0, z: float = 10.0) -> Block:
    return Block(rot_z(yaw), np.array([x, y, z]), SIZE, tile, "hand", sideways=yaw == 90)


def test_boxes_match_the_projected_faces() -> None:
    blocks = [_flat(t, -60 + 30 * i) for i, t in enumerate(["1m", "0p", "7z", "9s", "5p"])]
    cam, r = _render(blocks)
    left_to_right = sorted(r.shots, key=lambda s: s.box[0])
    assert [s.label for s in left_to_right] == ["1m", "0p", "7z", "9s", "5p"]
    for s in r.shots:
        b = s.block
        hw, hh, hd = np.array(b.size) / 2
        face = np.array([[-hw, hh, hd], [hw, hh, hd], [hw, -hh, hd], [-hw, -hh, hd]])
        uv, _ = cam.project(face @ b.R.T + b.t)
        expect = (*uv.min(0), *uv.max(0))
        assert s.box == pytest.approx(expect, abs=2.0)  # pixel-grid rounding
        assert s.visible_px == pytest.approx(s.full_area, rel=0.1)
        assert abs(s.up_angle) < 5  # seen from the owner's side: upright


def test_sideways_tile_box_is_wider_than_tall() -> None:
    _, r = _render([_flat("3s", 0, yaw=90)])
    x0, y0, x1, y1 = r.shots[0].box
    assert (x1 - x0) > 1.2 * (y1 - y0)
    assert abs(abs(r.shots[0].up_angle) - 90) < 5


def test_a_tile_on_top_hides_the_one_below() -> None:
    below, above = _flat("2m", 0), _flat("8p", 0, z=31.0)
    _, r = _render([below, above])
    seen = {s.label: s for s in r.shots}
    assert seen["8p"].visible_px == pytest.approx(seen["8p"].full_area, rel=0.1)
    assert seen.get("2m") is None or seen["2m"].visible_px < 0.05 * seen["2m"].full_area


def test_from_across_the_table_tiles_are_upside_down() -> None:
    _, r = _render([_flat("4m", -15), _flat("6m", 15)], azimuth=180, elevation=60)
    assert all(abs(s.up_angle) > 170 for s in r.shots)
    xs = {s.label: s.box[0] for s in r.shots}
    assert xs["6m"] < xs["4m"]  # left and right swap too


def test_face_down_tile_shows_its_back() -> None:
    b = Block(
        rot_z(0) @ np.diag([1.0, -1.0, -1.0]),
        np.array([0, 0, 10.0]),
        SIZE,
        "5z",
        "meld",
        face_down=True,
    )
    _, r = _render([b])
    assert [s.label for s in r.shots] == ["back"]
