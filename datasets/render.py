"""Render a scene through a camera: tile bodies with thickness, textured faces, shadows, and
an id buffer that tells which pixels of each tile face stay visible (for the labels)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from datasets import surfaces
from datasets.art import BACK_COLOURS, TEX_H, TEX_W, FaceStyle, back_texture
from datasets.camera import Camera
from datasets.scene import Block, Cylinder, Scene

_SHIFT = 4  # sub-pixel bits for cv2 polygon drawing
_ONE = 1 << _SHIFT
_TEX_CORNERS = np.array([[0, 0], [TEX_W, 0], [TEX_W, TEX_H], [0, TEX_H]], np.float32)

# local corner signs of the four corners of each face, in texture order (TL, TR, BR, BL
# as seen from outside the face), with the face's outward normal
_FACES = {
    "front": ((-1, 1, 1), (1, 1, 1), (1, -1, 1), (-1, -1, 1)),
    "back": ((1, 1, -1), (-1, 1, -1), (-1, -1, -1), (1, -1, -1)),
    "+x": ((1, 1, 1), (1, 1, -1), (1, -1, -1), (1, -1, 1)),
    "-x": ((-1, 1, -1), (-1, 1, 1), (-1, -1, 1), (-1, -1, -1)),
    "+y": ((1, 1, 1), (-1, 1, 1), (-1, 1, -1), (1, 1, -1)),
    "-y": ((-1, -1, 1), (1, -1, 1), (1, -1, -1), (-1, -1, -1)),
}
_NORMALS = {
    "front": (0, 0, 1),
    "back": (0, 0, -1),
    "+x": (1, 0, 0),
    "-x": (-1, 0, 0),
    "+y": (0, 1, 0),
    "-y": (0, -1, 0),
}


@dataclass
class TileShot:
    """What the camera saw of one tile."""

    block: Block
    label: str  # class name of the face seen ('back' for a back), '' when no big face is seen
    quad: np.ndarray  # (4, 2) pixel corners of that face
    full_area: float
    visible_px: int = 0
    box: tuple[float, float, float, float] | None = None
    up_angle: float = 0.0  # image angle of the face's up direction, degrees, 0 = up


@dataclass
class Look:
    style: FaceStyle
    back_colour: tuple[int, int, int]
    light: np.ndarray  # unit vector towards the light
    ambient: float
    face_layer: float  # fraction of the thickness that is face colour
    tint: np.ndarray  # per-channel tint of the faces (aged ivory, printing differences)
    gloss: float  # strength of the specular sheen (0: matte)
    shininess: float


def _shade(look: Look, normal: np.ndarray) -> float:
    return look.ambient + (1 - look.ambient) * max(0.0, float(normal @ look.light))


def _poly(img: np.ndarray, pts: np.ndarray, colour: tuple[float, ...] | int) -> None:
    p = np.round(pts * _ONE).astype(np.int32)
    cv2.fillConvexPoly(img, p, colour, cv2.LINE_AA if img.ndim == 3 else cv2.LINE_8, _SHIFT)


def _warp_rgba(
    img: np.ndarray,
    tex: np.ndarray,
    quad: np.ndarray,
    shade: float | np.ndarray,
    gloss: float = 0.0,
) -> None:
    h, w = img.shape[:2]
    x0, y0 = np.floor(quad.min(0)).astype(int)
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    th, tw = tex.shape[:2]
    src = _TEX_CORNERS * np.array([tw / TEX_W, th / TEX_H], np.float32)
    M = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
    patch = cv2.warpPerspective(
        tex,
        M,
        (x1 - x0, y1 - y0),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    a = patch[:, :, 3:4].astype(np.float32) * (1.0 / 255)
    roi = img[y0:y1, x0:x1]
    lit = patch[:, :, :3].astype(np.float32) * shade
    if gloss:
        lit += gloss
    roi[:] = np.clip(lit * a + roi * (1 - a), 0, 255).astype(np.uint8)


def _level(tex: tuple[np.ndarray, ...], quad: np.ndarray) -> np.ndarray:
    edge = max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0]) * 0.75)
    for lvl in range(len(tex) - 1, -1, -1):
        if tex[lvl].shape[1] >= edge:
            return tex[lvl]
    return tex[0]


def _quad_area(q: np.ndarray) -> float:
    x, y = q[:, 0], q[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


class Renderer:
    def __init__(self, cam: Camera, look: Look, rng: np.random.Generator):
        self.cam = cam
        self.look = look
        self.rng = rng
        self.ids = np.zeros((cam.height, cam.width), np.int32)
        self.shots: list[TileShot] = []
        self._textures: dict[str, np.ndarray] = {}
        self._rz: np.ndarray | None = None

    # --- table ---------------------------------------------------------------------------
    def table(self, scene: Scene) -> np.ndarray:
        extent = scene.table_half + 700.0
        n = 1024
        tex = surfaces.table_texture(self.rng, n, extent, scene.table_half, scene.panel_half)
        mm = 2 * extent / n
        A = np.array([[mm, 0, -extent + mm / 2], [0, mm, -extent + mm / 2], [0, 0, 1]])
        # texture rows grow with +y in the world; image of the plane via the homography
        H = self.cam.plane_homography() @ A
        room = np.array(self.rng.integers(20, 110, 3), np.float32)
        img = cv2.warpPerspective(
            tex,
            H,
            (self.cam.width, self.cam.height),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=tuple(float(v) for v in room),
        )
        rz = self._ray_z()
        sky = rz > -0.02
        if sky.any():
            wall = surfaces.room_clutter(self.rng, self.cam.width, self.cam.height, room)
            img[sky] = wall[sky]
        return img

    def _ray_z(self) -> np.ndarray:
        if self._rz is None:
            self._rz = self.cam.ray_z()
        return self._rz

    # --- shadows -------------------------------------------------------------------------
    def shadows(self, img: np.ndarray, scene: Scene, strength: float) -> None:
        L = self.look.light
        mask = np.zeros((self.cam.height // 2, self.cam.width // 2), np.uint8)
        Hp = self.cam.plane_homography()
        half = np.diag([0.5, 0.5, 1.0])
        for b in scene.blocks:
            corners = block_corners(b)
            pts = corners[:, :2] - corners[:, 2:3] * (L[:2] / max(L[2], 0.2))
            if not self._in_front(pts):
                continue
            hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)
            _poly(mask, _apply_h(half @ Hp, hull), 255)
        for c in scene.cylinders:
            ang = np.linspace(0, 2 * np.pi, 24, endpoint=False)
            ring = np.stack([np.cos(ang), np.sin(ang)], 1) * c.radius + c.centre[:2]
            top = ring - c.height * L[:2] / max(L[2], 0.2)
            if not self._in_front(np.concatenate([ring, top])):
                continue
            hull = cv2.convexHull(np.concatenate([ring, top]).astype(np.float32)).reshape(-1, 2)
            _poly(mask, _apply_h(half @ Hp, hull), 255)
        k = max(3, int(self.cam.width / 200) | 1)
        m = cv2.GaussianBlur(mask, (k, k), 0)
        m = cv2.resize(m, (self.cam.width, self.cam.height), interpolation=cv2.INTER_LINEAR)
        # uint8 arithmetic: img * (255 - strength * m) / 255
        keep = (255 - strength * m.astype(np.float32)).astype(np.uint8)
        img[:] = cv2.multiply(img, cv2.merge([keep, keep, keep]), scale=1 / 255)

    def _in_front(self, xy: np.ndarray) -> bool:
        """Whether table points all lie in front of the camera (else their image is a lie)."""
        pts = np.concatenate([xy, np.zeros((len(xy), 1))], 1)
        return bool(np.all(self.cam.to_cam(pts)[:, 2] > 30))

    # --- bodies --------------------------------------------------------------------------
    def draw(self, img: np.ndarray, scene: Scene) -> None:
        items: list[tuple[float, int, object]] = []
        for i, b in enumerate(scene.blocks):
            d = float(np.linalg.norm(b.t - self.cam.C))
            items.append((d, i, b))
        for j, c in enumerate(scene.cylinders):
            d = float(np.linalg.norm(c.centre + np.array([0, 0, c.height / 2]) - self.cam.C))
            items.append((d, len(scene.blocks) + j, c))
        # flat things lying on the cloth (panel, sticks, phone) first: whatever overlaps them
        # in the picture stands on or in front of them
        flat = {i for i, b in enumerate(scene.blocks) if b.tile is None and b.size[2] <= 8}
        items.sort(key=lambda it: (it[1] not in flat, -it[0]))
        for _, _, obj in items:
            if isinstance(obj, Block):
                self._block(img, obj)
            else:
                self._cylinder(img, obj)

    def _texture(self, key: str) -> np.ndarray:
        if key not in self._textures:
            if key == "panel":
                self._textures[key] = surfaces.panel_texture(self.rng)
            elif key == "phone":
                self._textures[key] = surfaces.phone_texture(self.rng)
            else:
                self._textures[key] = surfaces.stick_texture(
                    self.rng, int(self.rng.choice([100, 1000, 1000, 10000]))
                )
        return self._textures[key]

    def _block(self, img: np.ndarray, b: Block) -> None:
        cam = self.cam
        half = np.array(b.size) / 2
        look = self.look
        if np.any(cam.to_cam(block_corners(b))[:, 2] < 30):
            return
        is_tile = b.tile is not None
        for name, signs in _FACES.items():
            n_w = b.R @ np.array(_NORMALS[name], float)
            local = np.array(signs, float) * half
            world = local @ b.R.T + b.t
            if float(n_w @ (cam.C - world.mean(0))) <= 0:
                continue
            quad, _ = cam.project(world)
            shade = _shade(look, n_w)
            if name in ("front", "back") and is_tile:
                if name == "front" and b.tile != "back":
                    tex = _level(look.style.faces[b.tile], quad)
                    label = b.tile
                else:
                    tex = _level(back_texture(look.back_colour), quad)
                    label = "back"
                # the body under the rounded corners shows the layer colour
                base = look.style.body if name == "front" else look.back_colour
                _poly(img, quad, tuple(float(c) * shade * 0.92 for c in base))
                _warp_rgba(img, tex, quad, shade * look.tint, self._gloss(n_w, world))
                # the rounded edge of the body reads as a thin darker rim around the face
                edge = float(np.linalg.norm(quad[1] - quad[0]))
                if edge > 12:
                    rim = tuple(float(c) * shade * 0.72 for c in base)
                    p = np.round(quad * _ONE).astype(np.int32)
                    cv2.polylines(
                        img, [p], True, rim, max(1, round(edge / 70)), cv2.LINE_AA, _SHIFT
                    )
                tid = len(self.shots) + 1
                _poly(self.ids, quad, tid)
                self.shots.append(
                    TileShot(b, label, quad, _quad_area(quad), up_angle=_up_angle(quad))
                )
            elif name in ("front", "back"):
                if b.top and name == "front":
                    _poly(img, quad, tuple(float(c) * shade for c in b.colour))
                    _warp_rgba(img, self._texture(b.top), quad, shade)
                else:
                    _poly(img, quad, tuple(float(c) * shade for c in b.colour))
                _poly(self.ids, quad, 0)
            elif is_tile:
                # a side: the face layer (ivory) and the coloured back layer
                split = 1 - 2 * look.face_layer
                top = np.array(signs, float)
                lo = top.copy()
                z = np.where(top[:, 2] < 0, split, top[:, 2])
                lo[:, 2] = z
                q_face, _ = cam.project(lo * half @ b.R.T + b.t)
                z2 = np.where(top[:, 2] > 0, split, top[:, 2])
                hi = top.copy()
                hi[:, 2] = z2
                q_back, _ = cam.project(hi * half @ b.R.T + b.t)
                _poly(img, q_face, tuple(float(c) * shade for c in look.style.body))
                _poly(img, q_back, tuple(float(c) * shade for c in look.back_colour))
                _poly(self.ids, quad, 0)
            else:
                _poly(img, quad, tuple(float(c) * shade * 0.9 for c in b.colour))
                _poly(self.ids, quad, 0)

    def _gloss(self, normal: np.ndarray, world: np.ndarray) -> float:
        """A glossy face catches the light when it mirrors it towards the camera."""
        if not self.look.gloss:
            return 0.0
        L = self.look.light
        refl = 2 * float(normal @ L) * normal - L
        view = self.cam.C - world.mean(0)
        view /= np.linalg.norm(view)
        return self.look.gloss * max(0.0, float(refl @ view)) ** self.look.shininess

    def _cylinder(self, img: np.ndarray, c: Cylinder) -> None:
        ang = np.linspace(0, 2 * np.pi, 32, endpoint=False)
        ring = (
            np.stack([np.cos(ang) * c.radius, np.sin(ang) * c.radius, np.zeros_like(ang)], 1)
            + c.centre
        )
        top = ring + np.array([0, 0, c.height])
        if np.any(self.cam.to_cam(np.concatenate([ring, top]))[:, 2] < 30):
            return
        q0, _ = self.cam.project(ring)
        q1, _ = self.cam.project(top)
        hull = cv2.convexHull(np.concatenate([q0, q1]).astype(np.float32)).reshape(-1, 2)
        _poly(img, hull, tuple(float(v) * 0.85 for v in c.colour))
        _poly(self.ids, hull, 0)
        _poly(img, q1, tuple(float(v) for v in c.colour))
        inner = (top - c.centre - [0, 0, c.height]) * 0.85 + c.centre + [0, 0, c.height]
        qi, _ = self.cam.project(inner)
        _poly(img, qi, tuple(float(v) for v in c.inner))

    def depth_of_field(self, img: np.ndarray, focus: np.ndarray, strength: float) -> None:
        """Blur what lies far from the focused depth (tiles share the table's depth there)."""
        rz = self._ray_z()
        depth = np.where(rz < -1e-3, -self.cam.C[2] / np.minimum(rz, -1e-3), 1e6)
        fz = float(self.cam.to_cam(focus[None])[0, 2])
        amount = np.abs(1.0 / depth - 1.0 / fz) * fz  # 0 at the focus, ~1 far behind it
        w = np.clip(amount * strength, 0, 1).astype(np.float32)[:, :, None]
        sigma = max(1.0, 3.5 * max(self.cam.width, self.cam.height) / 1280)
        blurred = cv2.GaussianBlur(img, (0, 0), sigma)
        img[:] = (img * (1 - w) + blurred * w).astype(np.uint8)

    # --- labels ---------------------------------------------------------------------------
    def measure(self) -> None:
        h, w = self.ids.shape
        for i, s in enumerate(self.shots, start=1):
            x0, y0 = np.floor(s.quad.min(0)).astype(int)
            x1, y1 = np.ceil(s.quad.max(0)).astype(int) + 1
            x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
            if x1 <= x0 or y1 <= y0:
                continue
            m = self.ids[y0:y1, x0:x1] == i
            n = int(m.sum())
            s.visible_px = n
            if n:
                rows = np.flatnonzero(m.any(1))
                cols = np.flatnonzero(m.any(0))
                s.box = (
                    float(x0 + cols[0]),
                    float(y0 + rows[0]),
                    float(x0 + cols[-1] + 1),
                    float(y0 + rows[-1] + 1),
                )


def block_corners(b: Block) -> np.ndarray:
    """The eight corners of a block in world coordinates (mm)."""
    signs = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
    return (signs * (np.array(b.size) / 2)) @ b.R.T + b.t


def _apply_h(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.concatenate([pts, np.ones((len(pts), 1))], 1) @ H.T
    w = np.where(np.abs(p[:, 2:3]) < 1e-9, 1e-9, p[:, 2:3])
    return p[:, :2] / w


def _up_angle(quad: np.ndarray) -> float:
    """Image angle (degrees, 0 = pointing up, clockwise positive) of a face's up direction."""
    bottom = (quad[2] + quad[3]) / 2
    top = (quad[0] + quad[1]) / 2
    v = top - bottom
    return float(np.degrees(np.arctan2(v[0], -v[1])))


def random_look(styles: tuple[FaceStyle, ...], rng: np.random.Generator) -> Look:
    style = styles[int(rng.integers(len(styles)))]
    name = list(BACK_COLOURS)[int(rng.integers(len(BACK_COLOURS)))]
    colour = np.array(BACK_COLOURS[name], float) * rng.uniform(0.85, 1.12, 3)
    el = np.radians(rng.uniform(35, 85))
    az = rng.uniform(0, 2 * np.pi)
    light = np.array([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)])
    tint = rng.normal(1.0, 0.035, 3).clip(0.88, 1.1).astype(np.float32)
    gloss = float(rng.uniform(0, 160)) if rng.random() < 0.6 else 0.0
    return Look(
        style,
        tuple(int(v) for v in colour.clip(0, 255)),
        light,
        float(rng.uniform(0.45, 0.7)),
        float(rng.uniform(0.5, 0.7)),
        tint,
        gloss,
        float(rng.uniform(8, 60)),
    )
