"""Procedural table surfaces (felt, wood, cloth, automatic-table tops) and small textures
(riichi sticks, score panels, a phone), all drawn from the scene's random generator."""

from __future__ import annotations

import cv2
import numpy as np

#: Felt colours players buy (BGR): greens, blues, a red, a grey, a black, a purple.
FELT = (
    (60, 110, 30),
    (40, 95, 20),
    (70, 130, 60),
    (110, 70, 20),
    (140, 90, 30),
    (90, 60, 40),
    (40, 40, 150),
    (80, 80, 80),
    (35, 35, 35),
    (110, 60, 90),
    (60, 120, 110),
    (130, 130, 60),
)
WOOD = ((40, 80, 140), (30, 60, 110), (60, 110, 170), (80, 130, 180), (25, 40, 70))


def _smooth_noise(rng: np.random.Generator, n: int, cells: int) -> np.ndarray:
    small = rng.standard_normal((cells, cells)).astype(np.float32)
    return cv2.resize(small, (n, n), interpolation=cv2.INTER_CUBIC)


def _felt(rng: np.random.Generator, n: int, colour: np.ndarray) -> np.ndarray:
    base = np.ones((n, n, 3), np.float32) * colour
    low = _smooth_noise(rng, n, 6) * 0.05
    fine = rng.standard_normal((n, n)).astype(np.float32) * float(rng.uniform(0.02, 0.07))
    fine = cv2.GaussianBlur(fine, (3, 3), 0.6)
    return base * (1 + low + fine)[:, :, None]


def _wood(rng: np.random.Generator, n: int, colour: np.ndarray) -> np.ndarray:
    y = np.linspace(0, 1, n, dtype=np.float32)[:, None]
    x = np.linspace(0, 1, n, dtype=np.float32)[None, :]
    warp = _smooth_noise(rng, n, 5) * 0.03
    freq = float(rng.uniform(40, 120))
    grain = np.sin((y + warp + 0.02 * np.sin(x * 7)) * freq * 2 * np.pi)
    streak = _smooth_noise(rng, n, 40) * 0.05
    fine = rng.standard_normal((n, n)).astype(np.float32) * 0.02
    v = 1 + 0.08 * grain + streak + fine
    out = np.ones((n, n, 3), np.float32) * colour * v[:, :, None]
    if rng.random() < 0.5:  # planks
        step = int(n / rng.uniform(4, 12))
        for r in range(step, n, step):
            out[r : r + 2] *= 0.6
    if rng.random() < 0.5:
        out = np.ascontiguousarray(out.transpose(1, 0, 2))
    return out


def _cloth(rng: np.random.Generator, n: int, colour: np.ndarray) -> np.ndarray:
    period = float(rng.uniform(2.5, 6))
    i = np.arange(n, dtype=np.float32)
    weave = (
        np.sin(i[:, None] * 2 * np.pi / period) * np.sin(i[None, :] * 2 * np.pi / period)
    ).astype(np.float32)
    out = _felt(rng, n, colour) * (1 + 0.06 * weave)[:, :, None]
    if rng.random() < 0.4:  # a check pattern (tablecloth)
        cell = int(rng.uniform(20, 60))
        chk = ((i[:, None] // cell + i[None, :] // cell) % 2).astype(np.float32)
        other = np.array(rng.integers(40, 240, 3), np.float32)
        out = out * (1 - chk[:, :, None] * 0.5) + other * chk[:, :, None] * 0.5
    return out


def table_texture(
    rng: np.random.Generator, n: int, extent: float, half: float, panel: float
) -> np.ndarray:
    """A BGR uint8 texture of the table seen from above, covering [-extent, extent]^2 mm."""
    kind = rng.choice(["felt", "felt", "felt", "wood", "cloth"])
    if kind == "wood":
        colour = np.array(WOOD[int(rng.integers(len(WOOD)))], np.float32)
        top = _wood(rng, n, colour)
    else:
        colour = np.array(FELT[int(rng.integers(len(FELT)))], np.float32)
        colour = colour * float(rng.uniform(0.8, 1.2))
        top = _felt(rng, n, colour) if kind == "felt" else _cloth(rng, n, colour)
    mm = 2 * extent / n

    def px(v: float) -> int:
        return round((v + extent) / mm)

    # the table's rim (wood or plastic), then the floor beyond it
    rim = float(rng.uniform(25, 80))
    outer = (
        np.ones_like(top)
        * np.array(WOOD[int(rng.integers(len(WOOD)))], np.float32)
        * float(rng.uniform(0.5, 1.1))
    )
    # beyond the rim the camera sees the floor or the player's lap, far below and out of
    # focus: a dark, smooth colour rather than a plane continuing the table
    floor = np.ones_like(top) * np.array(rng.integers(15, 80, 3), np.float32)
    floor *= (1 + _smooth_noise(rng, n, 5) * 0.2)[:, :, None]
    a, b = px(-half), px(half)
    ra, rb = px(-half - rim), px(half + rim)
    out = floor
    out[ra:rb, ra:rb] = outer[ra:rb, ra:rb]
    out[a:b, a:b] = top[a:b, a:b]
    if panel and rng.random() < 0.5:
        # automatic tables: a raised frame and a different top around the middle
        ring = px(panel + 25) - px(panel)
        c0, c1 = px(-panel) - ring, px(panel) + ring
        out[c0:c1, c0:c1] *= 0.85
    return np.clip(out, 0, 255).astype(np.uint8)


def stick_texture(rng: np.random.Generator, kind: int) -> np.ndarray:
    """A point stick (100 x 10 mm) seen from above: 1000 = one red dot; 100 = eight dots."""
    w, h = 400, 40
    img = np.zeros((h, w, 4), np.uint8)
    img[:, :, :3] = (238, 240, 242)
    img[:, :, 3] = 255
    if kind == 1000:
        cv2.circle(img, (w // 2, h // 2), 12, (40, 30, 200, 255), -1, cv2.LINE_AA)
    elif kind == 10000:
        for dx in (-60, 0, 60):
            cv2.circle(img, (w // 2 + dx, h // 2), 10, (40, 30, 200, 255), -1, cv2.LINE_AA)
        for dx in (-30, 30):
            cv2.circle(img, (w // 2 + dx, h // 2), 8, (20, 20, 20, 255), -1, cv2.LINE_AA)
    else:
        for i in range(8):
            cv2.circle(img, (w // 2 - 140 + i * 40, h // 2), 6, (20, 20, 20, 255), -1, cv2.LINE_AA)
    return img


def panel_texture(rng: np.random.Generator) -> np.ndarray:
    """The centre of an automatic table: dice window and four score displays."""
    n = 400
    img = np.zeros((n, n, 4), np.uint8)
    img[:, :, :3] = np.array(rng.integers(15, 60, 3), np.uint8)
    img[:, :, 3] = 255
    cv2.circle(img, (n // 2, n // 2), 70, (10, 10, 10, 255), -1, cv2.LINE_AA)
    colour = ((40, 40, 230), (40, 220, 60), (30, 160, 240))[int(rng.integers(3))]
    for k in range(4):
        score = f"{int(rng.integers(0, 60)) * 100 + 0:05d}" if rng.random() < 0.9 else "25000"
        disp = np.zeros((70, 230, 4), np.uint8)
        disp[:, :, 3] = 255
        cv2.putText(
            disp, score, (8, 58), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (*colour, 255), 5, cv2.LINE_AA
        )
        disp = np.rot90(disp, k).copy()
        h, w = disp.shape[:2]
        pos = [
            ((n - w) // 2, n - h - 15),
            (n - w - 15, (n - h) // 2),
            ((n - w) // 2, 15),
            (15, (n - h) // 2),
        ][k]
        img[pos[1] : pos[1] + h, pos[0] : pos[0] + w] = disp
    return img


def phone_texture(rng: np.random.Generator) -> np.ndarray:
    img = np.zeros((300, 144, 4), np.uint8)
    img[:, :, :3] = (20, 20, 22)
    img[:, :, 3] = 255
    if rng.random() < 0.5:
        img[12:-12, 8:-8, :3] = np.array(rng.integers(60, 230, 3), np.uint8)
    return img


def room_clutter(rng: np.random.Generator, width: int, height: int, base: np.ndarray) -> np.ndarray:
    """What lies beyond the table, out of focus: a wall, shelves of books, furniture, people."""
    w, h = max(16, width // 6), max(16, height // 6)
    grad = np.linspace(0.6, 1.15, h, dtype=np.float32)[:, None, None]
    img = np.ones((h, w, 3), np.float32) * base * 1.3 * grad
    for _ in range(int(rng.integers(0, 5))):  # furniture, doors, windows
        x0, y0 = int(rng.integers(0, w)), int(rng.integers(0, h))
        x1, y1 = x0 + int(rng.integers(w // 10, w // 2)), y0 + int(rng.integers(h // 10, h))
        img[y0:y1, x0:x1] = rng.integers(10, 250, 3)
    if rng.random() < 0.4:  # a shelf of book spines
        y0 = int(rng.integers(0, h // 2))
        y1 = y0 + int(rng.integers(h // 8, h // 3))
        x = 0
        while x < w:
            bw = int(rng.integers(1, max(2, w // 40)))
            img[y0 + int(rng.integers(0, max(1, (y1 - y0) // 4))) : y1, x : x + bw] = rng.integers(
                20, 250, 3
            )
            x += bw
    if rng.random() < 0.3:  # a person across the table
        cx, cy = int(rng.integers(0, w)), int(rng.integers(h // 3, h))
        col = tuple(float(v) for v in rng.integers(10, 200, 3))
        cv2.ellipse(img, (cx, cy + h // 3), (w // 5, h // 3), 0, 0, 360, col, -1)
        skin = (
            float(rng.integers(60, 180)),
            float(rng.integers(100, 200)),
            float(rng.integers(150, 235)),
        )
        cv2.circle(img, (cx, cy - h // 10), max(2, h // 9), skin, -1)
    img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.8, 3.0)))
    return cv2.resize(
        np.clip(img, 0, 255).astype(np.uint8), (width, height), interpolation=cv2.INTER_LINEAR
    )
