"""A tiny layout function for grouping tests: a revealed hand as players lay it down,
turned and seen in perspective, as the axis-aligned boxes a detector would give.

Player frame: x to the player's right, y away from the player, an upright tile 0.75 wide
and 1 long. The hand is drawn at y=0, indicators above it. The frame is then scaled,
rotated by ``angle`` degrees (counter-clockwise on screen), optionally given a perspective
``tilt`` (far rows smaller) and moved to ``centre``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

W, H = 0.75, 1.0


@dataclass(frozen=True)
class Placed:
    tile: str
    x: float
    y: float
    sideways: bool
    role: str


def lay_out(
    concealed: list[str],
    win: str | None,
    melds: list[dict[str, Any]] = (),  # type: ignore[assignment]
    *,
    win_style: str = "gap",
    dora: list[str] = (),  # type: ignore[assignment]
    ura: list[str] = (),  # type: ignore[assignment]
    gap: float = 0.5,
    meld_gap: float = 0.4,
) -> list[Placed]:
    """Tiles in the player frame. ``melds``: ``{"kind", "tiles": [...], "from"}`` dicts
    (ankan tiles given face up; ends are turned face down), laid right of the concealed
    part, the first call furthest right."""
    out: list[Placed] = []
    x = 0.0
    for t in concealed:
        out.append(Placed(t, x, 0.0, False, "concealed"))
        x += W
    if win is not None:
        if win_style == "gap":
            x += gap
            out.append(Placed(win, x, 0.0, False, "win"))
            x += W
        else:  # sideways at the right end
            out.append(Placed(win, x, 0.0, True, "win"))
            x += H
    for meld in melds:
        x += meld_gap
        tiles = list(meld["tiles"])
        kind = meld["kind"]
        if kind == "ankan":
            faces = (
                ["x", tiles[1], tiles[2], "x"]
                if meld.get("ends", True)
                else [tiles[0], "x", "x", tiles[3]]
            )
            for t in faces:
                out.append(Placed(t, x, 0.0, False, "meld"))
                x += W
            continue
        n = 4 if kind == "daiminkan" else 3
        src = meld["from"]
        if kind == "daiminkan":
            pos = {"left": 0, "across": meld.get("across_pos", 1), "right": 3}[src]
        else:
            pos = {"left": 0, "across": 1, "right": 2}[src]
        for k in range(n):
            t = tiles[k]
            if k == pos:
                out.append(Placed(t, x, 0.0, True, "meld"))
                if kind == "kakan":
                    out.append(Placed(tiles[3], x, W, True, "meld"))
                x += H
            else:
                out.append(Placed(t, x, 0.0, False, "meld"))
                x += W
    for r, row in enumerate((dora, ura)):
        for k, t in enumerate(row):
            out.append(Placed(t, 1.0 + k * W, 1.6 + r * (H + 0.15), False, "indicator"))
    return out


def to_detections(
    placed: list[Placed],
    *,
    angle: float = 0.0,
    scale: float = 40.0,
    centre: tuple[float, float] = (600.0, 500.0),
    tilt: float = 0.0,
    give_sideways: bool = False,
) -> list[dict[str, Any]]:
    """Boxes in image pixels (y down) of the placed tiles, as ``group`` detections."""
    xs = [p.x for p in placed]
    mid = (min(xs) + max(xs) + W) / 2
    a = math.radians(angle)
    rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    dets = []
    for p in placed:
        w, h = (H, W) if p.sideways else (W, H)
        corners = np.array(
            [[p.x, p.y], [p.x + w, p.y], [p.x, p.y + h], [p.x + w, p.y + h]], dtype=float
        )
        corners[:, 0] -= mid
        if tilt:
            # Farther (larger y) is smaller and squeezed: a simple pinhole-like foreshortening.
            f = 1.0 / (1.0 + tilt * corners[:, 1])
            corners = np.stack([corners[:, 0] * f, corners[:, 1] * f * 0.7], axis=1)
        img = (corners * np.array([1.0, -1.0])) @ rot.T * scale + np.array(centre)
        box = [
            round(float(img[:, 0].min()), 2),
            round(float(img[:, 1].min()), 2),
            round(float(img[:, 0].max()), 2),
            round(float(img[:, 1].max()), 2),
        ]
        det: dict[str, Any] = {"tile": p.tile, "box": box, "confidence": 0.95}
        if give_sideways:
            det["sideways"] = p.sideways
        dets.append(det)
    return dets


def discards(x0: float, y0: float, tiles: list[str], *, per_row: int = 6) -> list[Placed]:
    """A player's discards in rows of six, rows going towards the player (down in y)."""
    out = []
    for k, t in enumerate(tiles):
        r, c = divmod(k, per_row)
        out.append(Placed(t, x0 + c * W, y0 - r * (H + 0.05), False, "discard"))
    return out


def wall(x0: float, y0: float, n: int) -> list[Placed]:
    """A row of face-down wall tiles lying across the player's view."""
    return [Placed("x", x0 + k * W, y0, False, "wall") for k in range(n)]


def side_river(x0: float, y0: float, tiles: list[str]) -> list[Placed]:
    """Another player's discards (turned 90 degrees to ours): a column going up."""
    return [Placed(t, x0, y0 + k * W, True, "discard") for k, t in enumerate(tiles)]
