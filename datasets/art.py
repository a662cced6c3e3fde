"""Tile faces in several visibly different styles, as RGBA texture pyramids.

Styles come from an art folder laid out like FluffyStuff/riichi-mahjong-tiles (``Export/Regular``,
``Export/Black``, or any folder holding ``Front.png`` and ``Man1.png`` ...; read where it lies,
never copied) and from faces drawn here: pins and bamboo as geometry, characters with a CJK
font found on disk (Debian's fonts-wqy-zenhei or fonts-noto-cjk), or with OpenCV's built-in
Hershey strokes when no CJK font is installed. Every style has the red fives.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from datasets.classes import BACK, CLASS_NAMES
from scoring.errors import RequestError

#: Texture size of pyramid level 0 (width, height): a 3:4 tile face.
TEX_W, TEX_H = 240, 320
LEVELS = 4

_FLUFFY = {"m": "Man", "p": "Pin", "s": "Sou"}
_HONOURS = ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun")

#: Fonts with CJK glyphs, searched in this order (Debian package paths); AGARI_CJK_FONT wins.
CJK_FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/arphic/uming.ttc",
)


def fluffy_file(name: str) -> str:
    """The FluffyStuff file stem of a class name.

    >>> fluffy_file("1m"), fluffy_file("0p"), fluffy_file("7z")
    ('Man1', 'Pin5-Dora', 'Chun')
    """
    if name[1] == "z":
        return _HONOURS[int(name[0]) - 1]
    if name[0] == "0":
        return f"{_FLUFFY[name[1]]}5-Dora"
    return f"{_FLUFFY[name[1]]}{name[0]}"


@dataclass(frozen=True)
class FaceStyle:
    """One face style: per class name (without ``back``) a pyramid of RGBA textures."""

    name: str
    faces: dict[str, tuple[np.ndarray, ...]]
    #: BGR of the face layer of the tile body (what the sides show above the coloured back).
    body: tuple[int, int, int]


def pyramid(rgba: np.ndarray) -> tuple[np.ndarray, ...]:
    """Level 0 and successive halvings (area-averaged, so small tiles do not alias)."""
    levels = [rgba]
    for _ in range(LEVELS - 1):
        h, w = levels[-1].shape[:2]
        levels.append(cv2.resize(levels[-1], (w // 2, h // 2), interpolation=cv2.INTER_AREA))
    return tuple(levels)


def rounded_mask(w: int, h: int, radius: int) -> np.ndarray:
    """A 0/255 mask of a rounded rectangle filling (w, h), antialiased."""
    scale = 4
    m = np.zeros((h * scale, w * scale), np.uint8)
    r = radius * scale
    cv2.rectangle(m, (r, 0), (w * scale - r - 1, h * scale - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w * scale - 1, h * scale - r - 1), 255, -1)
    for cx, cy in (
        (r, r),
        (w * scale - r - 1, r),
        (r, h * scale - r - 1),
        (w * scale - r - 1, h * scale - r - 1),
    ):
        cv2.circle(m, (cx, cy), r, 255, -1)
    return cv2.resize(m, (w, h), interpolation=cv2.INTER_AREA)


# --- styles from an art folder ----------------------------------------------------------------


def _read_rgba(path: Path) -> np.ndarray:
    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise RequestError(f"cannot read tile art {str(path)!r}", code="bad_art")
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA)
    elif img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    return img


def _over(dst: np.ndarray, src: np.ndarray, x: int, y: int) -> None:
    """Alpha-composite src (BGRA) onto dst (BGRA) at (x, y), in place."""
    h, w = src.shape[:2]
    roi = dst[y : y + h, x : x + w].astype(np.float32)
    a = src[:, :, 3:4].astype(np.float32) / 255.0
    roi[:, :, :3] = src[:, :, :3] * a + roi[:, :, :3] * (1 - a)
    roi[:, :, 3:4] = 255 * a + roi[:, :, 3:4] * (1 - a)
    dst[y : y + h, x : x + w] = roi.astype(np.uint8)


def style_dirs(art: Path) -> list[Path]:
    """Folders under ``art`` that hold one complete face set (``Front.png``, ``Man1.png``...)."""
    art = Path(art)
    if not art.is_dir():
        raise RequestError(f"tile art folder {str(art)!r} does not exist", code="bad_art")
    found = [p.parent for p in sorted(art.rglob("Man1.png")) if (p.parent / "Front.png").exists()]
    return found


def load_art_style(folder: Path, name: str | None = None, face_scale: float = 0.85) -> FaceStyle:
    """A style from PNG faces composited at ``face_scale`` onto ``Front.png``."""
    folder = Path(folder)
    front = cv2.resize(
        _read_rgba(folder / "Front.png"), (TEX_W, TEX_H), interpolation=cv2.INTER_AREA
    )
    fw, fh = int(TEX_W * face_scale), int(TEX_H * face_scale)
    faces: dict[str, tuple[np.ndarray, ...]] = {}
    for cls in CLASS_NAMES:
        if cls == BACK:
            continue
        path = folder / f"{fluffy_file(cls)}.png"
        if not path.exists():
            raise RequestError(
                f"tile art folder {str(folder)!r} lacks {path.name} (for {cls})", code="bad_art"
            )
        face = cv2.resize(_read_rgba(path), (fw, fh), interpolation=cv2.INTER_AREA)
        tex = front.copy()
        _over(tex, face, (TEX_W - fw) // 2, (TEX_H - fh) // 2)
        tex[:, :, 3] = front[:, :, 3]
        faces[cls] = pyramid(tex)
    centre = front[TEX_H // 2, TEX_W // 2, :3]
    body = (int(centre[0]), int(centre[1]), int(centre[2]))
    return FaceStyle(name or f"art-{folder.name.lower()}", faces, body)


# --- drawn styles -----------------------------------------------------------------------------


def find_cjk_font() -> Path | None:
    """A font file with CJK glyphs on this machine, or None (then Hershey strokes are used)."""
    env = os.environ.get("AGARI_CJK_FONT")
    for cand in ([env] if env else []) + list(CJK_FONT_CANDIDATES):
        if cand and Path(cand).is_file():
            return Path(cand)
    return None


@dataclass(frozen=True)
class _Ink:
    body: tuple[int, int, int]
    blue: tuple[int, int, int]
    red: tuple[int, int, int]
    green: tuple[int, int, int]
    black: tuple[int, int, int]


_INKS = (
    _Ink((222, 238, 244), (150, 70, 20), (40, 30, 200), (60, 120, 20), (30, 25, 25)),
    _Ink((245, 248, 250), (110, 50, 10), (30, 20, 180), (40, 140, 60), (10, 10, 10)),
)

_PIN_POS = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.28), (0.5, 0.72)],
    3: [(0.25, 0.22), (0.5, 0.5), (0.75, 0.78)],
    4: [(0.3, 0.28), (0.7, 0.28), (0.3, 0.72), (0.7, 0.72)],
    5: [(0.28, 0.24), (0.72, 0.24), (0.5, 0.5), (0.28, 0.76), (0.72, 0.76)],
    6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.52), (0.7, 0.52), (0.3, 0.8), (0.7, 0.8)],
    7: [
        (0.22, 0.16),
        (0.5, 0.24),
        (0.78, 0.32),
        (0.3, 0.58),
        (0.7, 0.58),
        (0.3, 0.83),
        (0.7, 0.83),
    ],
    8: [(0.3, y) for y in (0.17, 0.39, 0.61, 0.83)] + [(0.7, y) for y in (0.17, 0.39, 0.61, 0.83)],
    9: [(x, y) for y in (0.2, 0.5, 0.8) for x in (0.22, 0.5, 0.78)],
}
_SOU_POS = {
    2: [(0.5, 0.3), (0.5, 0.7)],
    3: [(0.5, 0.3), (0.3, 0.7), (0.7, 0.7)],
    4: [(0.3, 0.3), (0.7, 0.3), (0.3, 0.7), (0.7, 0.7)],
    5: [(0.25, 0.3), (0.75, 0.3), (0.5, 0.5), (0.25, 0.7), (0.75, 0.7)],
    6: [(x, y) for y in (0.3, 0.7) for x in (0.22, 0.5, 0.78)],
    7: [(0.5, 0.2)] + [(x, y) for y in (0.5, 0.8) for x in (0.22, 0.5, 0.78)],
    8: [(x, y) for y in (0.3, 0.7) for x in (0.16, 0.39, 0.61, 0.84)],
    9: [(x, y) for y in (0.2, 0.5, 0.8) for x in (0.22, 0.5, 0.78)],
}
_MAN_NUM = "一二三四五六七八九"
_HONOUR_CHARS = "東南西北白發中"


def _pin_colour(n: int, i: int, ink: _Ink, red: bool) -> tuple[int, int, int]:
    if red:
        return ink.red
    if n == 1:
        return ink.red
    if n in (2, 8):
        return ink.blue if n == 8 else ink.green
    if n == 3:
        return (ink.blue, ink.red, ink.green)[i]
    if n == 5:
        return ink.red if i == 2 else ink.blue
    if n == 6:
        return ink.green if i < 2 else ink.red
    if n == 7:
        return ink.green if i < 3 else ink.red
    if n == 9:
        return ink.red if 3 <= i <= 5 else ink.blue
    return ink.blue if i in (0, 3) else ink.green


def _draw_pins(img: np.ndarray, n: int, ink: _Ink, red: bool) -> None:
    pos = _PIN_POS[n]
    r = {1: 82, 2: 50, 3: 38, 4: 42, 5: 36, 6: 34, 7: 29, 8: 30, 9: 30}[n]
    for i, (x, y) in enumerate(pos):
        c = (int(x * TEX_W), int(y * TEX_H))
        col = _pin_colour(n, i, ink, red)
        cv2.circle(img, c, r, (*col, 255), -1, cv2.LINE_AA)
        cv2.circle(img, c, int(r * 0.78), (*ink.body, 255), -1, cv2.LINE_AA)
        cv2.circle(img, c, int(r * 0.6), (*col, 255), max(2, r // 9), cv2.LINE_AA)
        cv2.circle(img, c, int(r * 0.25), (*col, 255), -1, cv2.LINE_AA)
        if n == 1:
            for a in range(0, 360, 30):
                p = (
                    int(c[0] + 0.7 * r * np.cos(np.radians(a))),
                    int(c[1] + 0.7 * r * np.sin(np.radians(a))),
                )
                cv2.circle(img, p, 6, (*ink.green, 255), -1, cv2.LINE_AA)


def _stick(
    img: np.ndarray,
    c: tuple[int, int],
    length: int,
    col: tuple[int, int, int],
    ink: _Ink,
    angle: float = 0.0,
) -> None:
    w = 14
    dx, dy = np.sin(np.radians(angle)) * length / 2, np.cos(np.radians(angle)) * length / 2
    p0 = (int(c[0] - dx), int(c[1] - dy))
    p1 = (int(c[0] + dx), int(c[1] + dy))
    cv2.line(img, p0, p1, (*col, 255), w, cv2.LINE_AA)
    for t in (0.0, 0.5, 1.0):
        q = (int(p0[0] + (p1[0] - p0[0]) * t), int(p0[1] + (p1[1] - p0[1]) * t))
        cv2.line(img, (q[0] - 10, q[1]), (q[0] + 10, q[1]), (*col, 255), 5, cv2.LINE_AA)
        cv2.circle(img, q, 3, (*ink.body, 255), -1)


def _draw_sou(img: np.ndarray, n: int, ink: _Ink, red: bool) -> None:
    if n == 1:  # a bird, as on most sets
        cx, cy = TEX_W // 2, TEX_H // 2
        cv2.ellipse(img, (cx, cy + 20), (52, 72), 0, 0, 360, (*ink.green, 255), -1, cv2.LINE_AA)
        cv2.circle(img, (cx + 10, cy - 70), 28, (*ink.green, 255), -1, cv2.LINE_AA)
        cv2.circle(img, (cx + 18, cy - 76), 6, (*ink.red, 255), -1, cv2.LINE_AA)
        pts = np.array([[cx + 34, cy - 70], [cx + 60, cy - 60], [cx + 34, cy - 58]], np.int32)
        cv2.fillConvexPoly(img, pts, (*ink.red, 255), cv2.LINE_AA)
        for a in range(-50, 60, 20):
            e = (
                int(cx - 20 + 80 * np.sin(np.radians(a - 90))),
                int(cy + 60 + 80 * np.cos(np.radians(a - 90))),
            )
            cv2.line(img, (cx - 10, cy + 60), e, (*ink.blue, 255), 6, cv2.LINE_AA)
        cv2.line(img, (cx - 10, cy + 90), (cx - 20, cy + 130), (*ink.red, 255), 5, cv2.LINE_AA)
        cv2.line(img, (cx + 10, cy + 90), (cx + 20, cy + 130), (*ink.red, 255), 5, cv2.LINE_AA)
        return
    length = {2: 95, 3: 95, 4: 95, 5: 95, 6: 95, 7: 70, 8: 95, 9: 70}[n]
    for i, (x, y) in enumerate(_SOU_POS[n]):
        col = (
            ink.red
            if red or (n == 5 and i == 2) or (n == 7 and i == 0) or (n == 9 and i in (1, 4, 7))
            else ink.green
        )
        angle = 0.0
        if n == 8:
            angle = (18.0 if i % 2 == 0 else -18.0) * (1 if i < 4 else -1)
        _stick(img, (int(x * TEX_W), int(y * TEX_H)), length, col, ink, angle)


def _pil_text(
    img: np.ndarray,
    text: str,
    font_path: Path,
    size: int,
    centre: tuple[int, int],
    col: tuple[int, int, int],
) -> None:
    """Draw CJK text centred at ``centre`` (Pillow renders the glyphs; we composite)."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(font_path), size)
    canvas = Image.new("L", (TEX_W, TEX_H), 0)
    d = ImageDraw.Draw(canvas)
    x0, y0, x1, y1 = d.textbbox((0, 0), text, font=font)
    d.text((centre[0] - (x0 + x1) / 2, centre[1] - (y0 + y1) / 2), text, fill=255, font=font)
    a = np.asarray(canvas, np.float32)[:, :, None] / 255.0
    img[:, :, :3] = (img[:, :, :3] * (1 - a) + np.array(col, np.float32) * a).astype(np.uint8)


def _hershey(
    img: np.ndarray,
    text: str,
    scale: float,
    centre: tuple[int, int],
    col: tuple[int, int, int],
    thick: int,
) -> None:
    font = cv2.FONT_HERSHEY_TRIPLEX
    (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    org = (centre[0] - w // 2, centre[1] + h // 2)
    cv2.putText(img, text, org, font, scale, (*col, 255), thick, cv2.LINE_AA)


def _draw_chun(img: np.ndarray, col: tuple[int, int, int]) -> None:
    """中 drawn as strokes: a box and a vertical bar (works without any font)."""
    cx, cy = TEX_W // 2, TEX_H // 2
    cv2.rectangle(img, (cx - 70, cy - 50), (cx + 70, cy + 30), (*col, 255), 16, cv2.LINE_AA)
    cv2.line(img, (cx, cy - 120), (cx, cy + 125), (*col, 255), 18, cv2.LINE_AA)


def draw_face(name: str, ink: _Ink, font: Path | None, corner_index: bool) -> np.ndarray:
    """One drawn face (BGRA, level 0) for a class name."""
    img = np.zeros((TEX_H, TEX_W, 4), np.uint8)
    img[:, :, :3] = ink.body
    img[:, :, 3] = rounded_mask(TEX_W, TEX_H, 26)
    n, suit = int(name[0]), name[1]
    red = n == 0
    n = 5 if red else n
    if suit == "p":
        _draw_pins(img, n, ink, red)
    elif suit == "s":
        _draw_sou(img, n, ink, red)
    elif suit == "m":
        num_col = ink.red if red else ink.black
        if font is not None:
            _pil_text(img, _MAN_NUM[n - 1], font, 120, (TEX_W // 2, 90), num_col)
            _pil_text(img, "萬", font, 130, (TEX_W // 2, 225), ink.red)
        else:
            _hershey(img, str(n), 4.0, (TEX_W // 2, 95), num_col, 10)
            _hershey(img, "M", 3.6, (TEX_W // 2, 230), ink.red, 9)
    else:
        if n == 5:  # haku: blank, or a blue frame on some sets
            if corner_index:
                cv2.rectangle(img, (45, 60), (TEX_W - 45, TEX_H - 60), (*ink.blue, 255), 10)
        elif n == 7 and font is None:
            _draw_chun(img, ink.red)
        else:
            col = {6: ink.green, 7: ink.red}.get(n, ink.blue if corner_index else ink.black)
            if font is not None:
                _pil_text(img, _HONOUR_CHARS[n - 1], font, 190, (TEX_W // 2, TEX_H // 2), col)
            else:
                _hershey(img, "ESWN.F"[n - 1], 6.0, (TEX_W // 2, TEX_H // 2), col, 14)
    if corner_index and not (suit == "z" and n in (5, 6, 7)):
        label = f"{n}" if suit != "z" else "ESWN"[n - 1]
        cv2.putText(
            img, label, (14, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (*ink.black, 255), 3, cv2.LINE_AA
        )
    img[:, :, 3] = rounded_mask(TEX_W, TEX_H, 26)
    return img


def drawn_style(variant: int, font: Path | None) -> FaceStyle:
    """A drawn face set; ``variant`` picks inks and whether corner indices are printed."""
    ink = _INKS[variant % len(_INKS)]
    corner = variant % 2 == 1
    faces = {cls: pyramid(draw_face(cls, ink, font, corner)) for cls in CLASS_NAMES if cls != BACK}
    kind = "cjk" if font is not None else "hershey"
    return FaceStyle(f"drawn-{kind}-{variant}", faces, ink.body)


@lru_cache(maxsize=4)
def load_styles(art: str | None) -> tuple[FaceStyle, ...]:
    """Every style available: each face set in ``art`` (if given) plus the drawn ones."""
    styles: list[FaceStyle] = []
    if art is not None:
        dirs = style_dirs(Path(art))
        if not dirs:
            raise RequestError(
                f"no tile faces under {art!r}: expected folders holding Front.png and Man1.png ...",
                code="bad_art",
            )
        # The PNG exports are what we composite; the SVG folders have no PNGs and are skipped.
        styles += [load_art_style(d, f"art-{d.parent.name.lower()}-{d.name.lower()}") for d in dirs]
    font = find_cjk_font()
    styles += [drawn_style(0, font), drawn_style(1, font)]
    return tuple(styles)


#: Back colours players see on tables (BGR): yellow, green, blue, orange, red, lilac.
BACK_COLOURS: dict[str, tuple[int, int, int]] = {
    "yellow": (40, 190, 230),
    "green": (70, 140, 40),
    "blue": (170, 95, 30),
    "orange": (30, 125, 235),
    "red": (50, 45, 195),
    "lilac": (200, 150, 185),
}


@lru_cache(maxsize=64)
def back_texture(colour: tuple[int, int, int]) -> tuple[np.ndarray, ...]:
    """A plain coloured back (a soft sheen towards the top), as a pyramid."""
    img = np.zeros((TEX_H, TEX_W, 4), np.uint8)
    yy = np.linspace(1.08, 0.92, TEX_H, dtype=np.float32)[:, None, None]
    img[:, :, :3] = np.clip(np.array(colour, np.float32)[None, None, :] * yy, 0, 255).astype(
        np.uint8
    )
    img[:, :, 3] = rounded_mask(TEX_W, TEX_H, 26)
    return pyramid(img)


__all__ = [
    "BACK_COLOURS",
    "FaceStyle",
    "back_texture",
    "draw_face",
    "drawn_style",
    "find_cjk_font",
    "fluffy_file",
    "load_art_style",
    "load_styles",
    "style_dirs",
]
