"""Scene layout on the table, in millimetres (table centre at the origin, z up).

The hand's owner sits at -y. Their revealed hand lies near their edge: the concealed tiles in
a row, the winning tile apart (or sideways), the called melds at the right with the called
tile sideways where it shows the source, the dora (and ura) indicators above. Around it, the
distractors of a real table: rivers of discards in rows of six, walls, riichi sticks, the
centre panel of an automatic table with its score displays, other objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from datasets.hands import LaidHand

#: A tile standing on its bottom edge with its face towards -y (the owner).
_STAND = np.array([[1.0, 0, 0], [0, 0, -1.0], [0, 1.0, 0]])
_FLIP = np.diag([1.0, -1.0, -1.0])  # turned over about its x axis: face on the table


def rot_z(deg: float) -> np.ndarray:
    a = np.radians(deg)
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def rot_x(deg: float) -> np.ndarray:
    a = np.radians(deg)
    c, s = np.cos(a), np.sin(a)
    return np.array([[1.0, 0, 0], [0, c, -s], [0, s, c]])


@dataclass(eq=False)  # identity: blocks hold numpy arrays
class Block:
    """A rectangular body: a tile (``tile`` set) or a stick, panel, phone ...

    Local axes: x across the face, y towards the top of the face, z out of the face; the
    block is centred on ``t`` and turned by ``R`` (local to world).
    """

    R: np.ndarray
    t: np.ndarray
    size: tuple[float, float, float]
    tile: str | None = None
    role: str = "other"
    sideways: bool = False
    face_down: bool = False
    upright: bool = False
    colour: tuple[int, int, int] = (200, 200, 200)
    top: str | None = None
    meld: int | None = None
    order: int = -1


@dataclass
class Cylinder:
    """An upright cylinder (a cup, a dice cup); ``colour`` of its side, ``inner`` of its top."""

    centre: np.ndarray
    radius: float
    height: float
    colour: tuple[int, int, int]
    inner: tuple[int, int, int]


@dataclass
class Scene:
    """A laid-out table: every body on it, the hand's truth (indicators left off the table are
    dropped from it), the tile size, and ``focus``: centres of the hand and indicator tiles."""

    blocks: list[Block]
    hand: LaidHand
    tile_size: tuple[float, float, float]
    table_half: float
    panel_half: float
    focus: np.ndarray
    upright_hand: bool
    cylinders: list[Cylinder] = field(default_factory=list)


class _Row:
    """Lays tiles left to right along +x from a cursor, bottom edges on ``y0``."""

    def __init__(
        self, x: float, y0: float, size: tuple[float, float, float], rng: np.random.Generator
    ):
        self.x = x
        self.y0 = y0
        self.W, self.H, self.D = size
        self.rng = rng
        self.blocks: list[Block] = []

    #: How tidily the row is laid: 1 is careful, 2.5 is a quick shove.
    mess = 1.0

    def _jit(self, s: float) -> float:
        return float(self.rng.normal(0, s * self.mess))

    def gap(self, mm: float) -> None:
        self.x += mm

    def flat(
        self,
        tile: str,
        role: str,
        *,
        sideways: bool = False,
        face_down: bool = False,
        meld: int | None = None,
        y_extra: float = 0.0,
        advance: bool = True,
    ) -> Block:
        W, H, D = self.W, self.H, self.D
        yaw = self._jit(1.2)
        if sideways:
            c = (self.x + H / 2, self.y0 + W / 2 + y_extra, D / 2)
            R = rot_z(90 + yaw)
            width = H
        else:
            c = (self.x + W / 2, self.y0 + H / 2 + y_extra, D / 2)
            R = rot_z(yaw)
            width = W
        if face_down:
            R = R @ _FLIP
        b = Block(
            R,
            np.array(c) + np.array([self._jit(0.4), self._jit(0.4), 0]),
            (W, H, D),
            tile,
            role,
            sideways,
            face_down,
            meld=meld,
        )
        self.blocks.append(b)
        if advance:
            self.x += width + abs(self._jit(0.5)) + 0.3
        return b

    def standing(self, tile: str, role: str, lean: float) -> Block:
        W, H, D = self.W, self.H, self.D
        R = rot_z(self._jit(1.5)) @ rot_x(-lean) @ _STAND
        c = (
            self.x + W / 2,
            self.y0 + D / 2,
            H / 2 * np.cos(np.radians(lean)) + D / 2 * np.sin(np.radians(abs(lean))),
        )
        b = Block(
            R,
            np.array(c) + np.array([self._jit(0.3), self._jit(0.5), 0]),
            (W, H, D),
            tile,
            role,
            upright=True,
        )
        self.blocks.append(b)
        self.x += W + abs(self._jit(0.4)) + 0.2
        return b


def _transform(blocks: list[Block], R: np.ndarray, t: np.ndarray) -> None:
    for b in blocks:
        b.R = R @ b.R
        b.t = R @ b.t + t


def lay_hand(
    hand: LaidHand, rng: np.random.Generator, size: tuple[float, float, float], *, upright: bool
) -> tuple[list[Block], float]:
    """The hand's blocks (bottom-left of the concealed row at the origin) and its width."""
    W = size[0]
    row = _Row(0.0, 0.0, size, rng)
    row.mess = float(rng.uniform(0.4, 2.5))
    lean = float(rng.uniform(-5, 12))
    for t in hand.concealed:
        if upright:
            row.standing(t, "hand", lean)
        else:
            row.flat(t, "hand")
    style = rng.random()
    if style < 0.7 or upright:
        row.gap(float(rng.uniform(0.25, 0.8)) * W)
        row.flat(hand.win_tile, "win")
    else:
        row.gap(float(rng.uniform(0.0, 0.3)) * W)
        row.flat(hand.win_tile, "win", sideways=True)
    if hand.melds:
        row.gap(float(rng.uniform(0.4, 2.5)) * W)
    for mi, meld in enumerate(hand.melds):
        for j, t in enumerate(meld.tiles):
            if meld.stacked_on is not None and j == len(meld.tiles) - 1:
                continue
            side = j in meld.sideways
            if side and meld.stacked_on == j:
                base_x = row.x
                row.flat(t, "meld", sideways=True, meld=mi)
                keep = row.x
                row.x = base_x
                added = row.flat(
                    meld.tiles[-1], "meld", sideways=True, meld=mi, y_extra=W + 0.8, advance=False
                )
                # listed last in its meld, as in the truth's hand_tiles reading order
                row.blocks.pop()
                row.x = keep
            else:
                row.flat(t, "meld", sideways=side, face_down=j in meld.face_down, meld=mi)
        if meld.stacked_on is not None:
            row.blocks.append(added)
        row.gap(float(rng.uniform(0.1, 0.6)) * W)
    for i, b in enumerate(row.blocks):
        b.order = i
    return row.blocks, row.x


def lay_indicators(
    tiles: tuple[str, ...],
    role: str,
    rng: np.random.Generator,
    size: tuple[float, float, float],
    x: float,
    y: float,
) -> list[Block]:
    row = _Row(x, y, size, rng)
    for i, t in enumerate(tiles):
        b = row.flat(t, role)
        b.order = i
    return row.blocks


def lay_dead_wall(
    dora: tuple[str, ...],
    rng: np.random.Generator,
    size: tuple[float, float, float],
    x: float,
    y: float,
    back_rows: int = 7,
) -> list[Block]:
    """A dead wall of stacks of two, the indicators flipped face up on the top tier."""
    W, H, D = size
    blocks: list[Block] = []
    for i in range(back_rows):
        cx = x + i * (W + 0.5) + W / 2
        blocks.append(
            Block(
                _FLIP.copy(), np.array([cx, y + H / 2, D / 2]), size, "back", "wall", face_down=True
            )
        )
        k = i - 2
        if 0 <= k < len(dora):
            b = Block(
                rot_z(float(rng.normal(0, 1))),
                np.array([cx, y + H / 2, 1.5 * D + 0.3]),
                size,
                dora[k],
                "dora",
            )
            b.order = k
        else:
            b = Block(
                _FLIP.copy(),
                np.array([cx, y + H / 2, 1.5 * D + 0.3]),
                size,
                "back",
                "wall",
                face_down=True,
            )
        blocks.append(b)
    return blocks


def _random_tiles(rng: np.random.Generator, n: int) -> list[str]:
    out = []
    for _ in range(n):
        s = "mpsz"[int(rng.integers(4))]
        k = int(rng.integers(1, 8 if s == "z" else 10))
        if k == 5 and s != "z" and rng.random() < 0.08:
            k = 0
        out.append(f"{k}{s}")
    return out


def lay_river(
    rng: np.random.Generator, size: tuple[float, float, float], n: int, start_y: float
) -> list[Block]:
    """One player's discards in rows of six (in their frame: rows go towards the player)."""
    W, H = size[0], size[1]
    blocks: list[Block] = []
    riichi_at = int(rng.integers(n)) if n and rng.random() < 0.4 else -1
    tiles = _random_tiles(rng, n)
    for r in range(0, (n + 5) // 6):
        row = _Row(-3 * W - 1.5, start_y - (r + 1) * (H + 1.0), size, rng)
        for j in range(6):
            i = r * 6 + j
            if i >= n:
                break
            if r == 2 and j == 5 and n > 18:
                break
            row.flat(tiles[i], "discard", sideways=i == riichi_at)
        blocks += row.blocks
    return blocks


def lay_wall(rng: np.random.Generator, size: tuple[float, float, float], y: float) -> list[Block]:
    """A wall of 17 stacks of two, face down, with some stacks already drawn."""
    W, H, D = size
    blocks: list[Block] = []
    x0 = -17 * (W + 0.3) / 2
    keep = np.ones(17, bool)
    if rng.random() < 0.8:
        a = int(rng.integers(0, 17))
        b = int(rng.integers(a, 18))
        keep[a:b] = False
    for i in range(17):
        if not keep[i]:
            continue
        cx = x0 + i * (W + 0.3) + W / 2
        for tier in range(2 if rng.random() < 0.93 else 1):
            R = rot_z(float(rng.normal(0, 0.6))) @ _FLIP
            blocks.append(
                Block(
                    R,
                    np.array([cx, y - H / 2, D / 2 + tier * (D + 0.2)]),
                    size,
                    "back",
                    "wall",
                    face_down=True,
                )
            )
    return blocks


def lay_standing_hand(
    rng: np.random.Generator, size: tuple[float, float, float], y: float, n: int
) -> list[Block]:
    """Another player's concealed tiles standing before them (their frame): from the owner's
    side of the table the camera sees their backs; the truth labels whichever face it sees."""
    W = size[0]
    row = _Row(-n * W / 2, y, size, rng)
    for t in _random_tiles(rng, n):
        row.standing(t, "other_hand", float(rng.uniform(-3, 8)))
    return row.blocks


def lay_loose_tiles(
    rng: np.random.Generator, size: tuple[float, float, float], half: float, panel: float
) -> list[Block]:
    """Tiles pushed about at random angles, face up or down (between hands, while mixing)."""
    W, H, D = size
    pitch = float(np.hypot(W, H)) + 2
    cx, cy = (
        float(rng.uniform(-half * 0.5, half * 0.5)),
        float(rng.uniform(-half * 0.1, half * 0.6)),
    )
    n = int(rng.integers(2, 7))
    blocks = []
    for gx in range(n):
        for gy in range(int(rng.integers(1, 5))):
            if rng.random() < 0.35:
                continue
            x = cx + (gx - n / 2) * pitch + float(rng.normal(0, 2))
            y = cy + gy * pitch + float(rng.normal(0, 2))
            if panel and abs(x) < panel + pitch / 2 and abs(y) < panel + pitch / 2:
                continue
            R = rot_z(float(rng.uniform(0, 360)))
            face_down = bool(rng.random() < 0.3)
            if face_down:
                R = R @ _FLIP
            tile = _random_tiles(rng, 1)[0]
            blocks.append(
                Block(R, np.array([x, y, D / 2]), size, tile, "loose", face_down=face_down)
            )
    return blocks


def build_scene(hand: LaidHand, rng: np.random.Generator) -> Scene:
    """Lay out the whole table around a revealed hand."""
    W = float(rng.uniform(23.5, 28.5))
    size = (W, W * float(rng.uniform(1.3, 1.4)), W * float(rng.uniform(0.66, 0.82)))
    H = size[1]
    upright = bool(rng.random() < 0.2)
    half = float(rng.uniform(390, 470))
    panel = float(rng.uniform(70, 95)) if rng.random() < 0.6 else 0.0
    blocks, width = lay_hand(hand, rng, size, upright=upright)
    x0 = float(np.clip(-width / 2 + rng.normal(0, 40), -half + 5, half - width - 5))
    y0 = -half + float(rng.uniform(25, 110))
    _transform(blocks, np.eye(3), np.array([x0, y0, 0.0]))
    hand_blocks = list(blocks)
    focus = [b.t for b in hand_blocks]
    protected = list(hand_blocks)

    # indicators
    place = rng.random()
    if hand.dora_indicators and place < 0.65:
        dx = x0 + float(rng.uniform(0, max(1.0, width * 0.6)))
        dy = y0 + H + float(rng.uniform(12, 70))
        ind = lay_indicators(hand.dora_indicators, "dora", rng, size, dx, dy)
        blocks += ind
        protected += ind
        focus += [b.t for b in ind]
        if hand.ura_indicators:
            if rng.random() < 0.6:
                ura = lay_indicators(
                    hand.ura_indicators, "ura", rng, size, dx, dy + H + float(rng.uniform(1, 12))
                )
            else:
                ux = dx + len(hand.dora_indicators) * (W + 1) + float(rng.uniform(10, 40))
                ura = lay_indicators(hand.ura_indicators, "ura", rng, size, ux, dy)
            blocks += ura
            protected += ura
            focus += [b.t for b in ura]
    elif hand.dora_indicators and place < 0.9 and len(hand.dora_indicators) <= 5:
        dx = x0 + float(rng.uniform(-40, max(1.0, width * 0.4)))
        dy = y0 + H + float(rng.uniform(20, 60))
        dw = lay_dead_wall(hand.dora_indicators, rng, size, dx, dy)
        blocks += dw
        protected += dw
        focus += [b.t for b in dw if b.role == "dora"]
        if hand.ura_indicators:
            ura = lay_indicators(
                hand.ura_indicators, "ura", rng, size, dx + 2 * (W + 0.5), dy + H + 8
            )
            blocks += ura
            protected += ura
            focus += [b.t for b in ura]
    else:
        # indicators not on the table in this photo: the truth says so
        hand = type(hand)(hand.concealed, hand.win_tile, hand.melds, (), (), hand.shape, hand.theme)

    # the rest of the table: rivers, walls, sticks, other players' hands
    for seat in range(4):
        Rs = rot_z(90 * seat)
        extra: list[Block] = []
        if rng.random() < 0.7:
            n = int(rng.integers(4, 20))
            extra += lay_river(rng, size, n, -(panel + 8 if panel else rng.uniform(60, 100)))
        if rng.random() < 0.45:
            extra += lay_wall(rng, size, -(max(panel, 60) + 3 * H + 20 + rng.uniform(0, 30)))
        if rng.random() < 0.3:
            y = -(panel + 3 if panel else 40)
            stick = Block(
                rot_z(float(rng.normal(0, 3))),
                np.array([float(rng.normal(0, 20)), y - 6, 2.0]),
                (100.0, 10.0, 4.0),
                None,
                "stick",
                colour=(235, 238, 240),
                top="stick",
            )
            extra.append(stick)
        if seat and rng.random() < 0.25:
            extra += lay_standing_hand(rng, size, -half + 30, int(rng.integers(4, 14)))
        _transform(extra, Rs, np.zeros(3))
        blocks += extra
    if rng.random() < 0.2:
        blocks += lay_loose_tiles(rng, size, half, panel)
    if panel:
        blocks.append(
            Block(
                rot_z(0),
                np.array([0.0, 0.0, 1.0]),
                (2 * panel, 2 * panel, 2.0),
                None,
                "panel",
                colour=(30, 30, 32),
                top="panel",
            )
        )
    cylinders: list[Cylinder] = []
    if rng.random() < 0.2:
        c = np.array([float(rng.uniform(-half, half)), float(rng.uniform(-half * 0.3, half)), 0.0])
        cylinders.append(
            Cylinder(
                c,
                float(rng.uniform(35, 50)),
                float(rng.uniform(60, 110)),
                tuple(int(v) for v in rng.integers(40, 250, 3)),
                (30, 50, 70),
            )
        )
    if rng.random() < 0.2:
        phone = Block(
            rot_z(float(rng.uniform(0, 180))),
            np.array([float(rng.uniform(-half, half)), float(rng.uniform(-half * 0.2, half)), 4.0]),
            (72.0, 150.0, 8.0),
            None,
            "object",
            colour=(25, 25, 28),
            top="phone",
        )
        blocks.append(phone)
    for _ in range(int(rng.integers(0, 4))):
        # loose point sticks
        s = Block(
            rot_z(float(rng.uniform(0, 180))),
            np.array([float(rng.uniform(-half, half)), float(rng.uniform(-half * 0.5, half)), 2.0]),
            (100.0, 10.0, 4.0),
            None,
            "stick",
            colour=(235, 238, 240),
            top="stick",
        )
        blocks.append(s)
    # drop anything sitting on the hand or its indicators (we do not simulate collisions)
    prot_xy = np.array([b.t[:2] for b in protected])
    prot_ids = {id(b) for b in protected}
    kept = list(protected)
    for b in blocks:
        if id(b) in prot_ids:
            continue
        d = np.abs(prot_xy - b.t[:2])
        reach = max(b.size[0], b.size[1]) / 2 + H * 0.75
        if np.any((d[:, 0] < reach) & (d[:, 1] < reach)):
            continue
        kept.append(b)
    return Scene(kept, hand, size, half, panel, np.array(focus), upright, cylinders)
