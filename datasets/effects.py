"""Camera realism applied to a rendered frame: uneven light, glare, white balance, defocus
and motion blur, sensor noise. (JPEG compression happens when the image is written.)"""

from __future__ import annotations

import cv2
import numpy as np


def _field(rng: np.random.Generator, h: int, w: int, cells: int, amp: float) -> np.ndarray:
    small = rng.standard_normal((cells, cells)).astype(np.float32) * amp
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _low_res_grid(h: int, w: int, step: int) -> tuple[np.ndarray, np.ndarray, int, int]:
    hs, ws = max(2, h // step), max(2, w // step)
    yy = np.linspace(0, h, hs, dtype=np.float32)[:, None]
    xx = np.linspace(0, w, ws, dtype=np.float32)[None, :]
    return yy, xx, hs, ws


def apply_camera(img: np.ndarray, rng: np.random.Generator) -> dict[str, float]:
    """Degrade ``img`` (BGR uint8) in place like a phone camera would; return what was done.

    Smooth fields (light falloff, vignette, glare) are computed on a coarse grid and resized,
    and the tone curve is a lookup table, so 12 MP frames stay affordable.
    """
    h, w = img.shape[:2]
    scale = max(h, w) / 1280
    done: dict[str, float] = {}
    yy, xx, hs, ws = _low_res_grid(h, w, 8)
    # uneven light: a smooth gain field, a vignette, the exposure
    gain = 1 + _field(rng, hs, ws, 3, float(rng.uniform(0.04, 0.18)))
    r2 = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
    vig = float(rng.uniform(0.0, 0.3))
    gain *= 1 - vig * r2 / 2
    exposure = float(rng.uniform(0.7, 1.25))
    gain *= exposure
    done["exposure"] = exposure
    glare = None
    if rng.random() < 0.3:  # a lamp's reflection
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        rad = rng.uniform(0.1, 0.35) * max(w, h)
        strength = float(rng.uniform(30, 110))
        glare = strength * np.exp(-(((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * rad**2)))
        done["glare"] = strength
    # white balance of the light (warm lamps, cool daylight)
    wb = np.array([rng.normal(1, 0.08), rng.normal(1, 0.03), rng.normal(1, 0.08)], np.float32)
    gain3 = gain.astype(np.float32)[:, :, None] * wb  # coarse (hs, ws, 3)
    gain3 = cv2.resize(gain3, (w, h), interpolation=cv2.INTER_LINEAR)
    f = img.astype(np.float32)
    f *= gain3
    if glare is not None:
        f += cv2.resize(glare.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)[
            :, :, None
        ]
    out = cv2.convertScaleAbs(f)  # saturating cast; every value is >= 0
    # contrast / gamma as a lookup table
    gamma = float(rng.uniform(0.8, 1.2))
    lut = (255 * (np.arange(256) / 255) ** gamma).clip(0, 255).astype(np.uint8)
    out = cv2.LUT(out, lut)
    # blur: focus missed, or a hand that moved
    p = rng.random()
    if p < 0.25:
        sigma = float(rng.uniform(0.6, 2.2)) * scale
        out = cv2.GaussianBlur(out, (0, 0), sigma)
        done["defocus"] = sigma
    elif p < 0.37:
        length = max(3, int(rng.uniform(3, 11) * scale))
        k = np.zeros((length, length), np.float32)
        k[length // 2, :] = 1
        centre = ((length - 1) / 2, (length - 1) / 2)
        M = cv2.getRotationMatrix2D(centre, float(rng.uniform(0, 180)), 1)
        k = cv2.warpAffine(k, M, (length, length))
        k /= max(k.sum(), 1e-6)
        out = cv2.filter2D(out, -1, k)
        done["motion"] = float(length)
    elif p < 0.7:
        out = cv2.GaussianBlur(out, (0, 0), 0.5 * scale)  # the softness of every phone lens
    if rng.random() < 0.3:  # phones sharpen: an unsharp mask, with its halos
        amount = float(rng.uniform(0.3, 1.0))
        soft = cv2.GaussianBlur(out, (0, 0), 1.2 * scale)
        out = cv2.addWeighted(out, 1 + amount, soft, -amount, 0)
        done["sharpen"] = amount
    # sensor noise: luminance noise, sometimes shot-like (stronger in the bright parts), plus
    # blotchy colour noise. OpenCV's generator is much faster than numpy's here; it is seeded
    # from ours, so the bytes still depend on the sample's seed only.
    sigma = float(rng.uniform(1.0, 7.0))
    cv2.setRNGSeed(int(rng.integers(2**31)))
    if rng.random() < 0.5:
        noise = np.empty((h, w), np.float32)
        cv2.randn(noise, 0.0, sigma)
        shot = np.sqrt(np.maximum(np.arange(256, dtype=np.float32), 1) / 128)
        noise *= shot[cv2.cvtColor(out, cv2.COLOR_BGR2GRAY)]
        n16 = noise.astype(np.int16)
    else:
        n16 = np.empty((h, w), np.int16)
        cv2.randn(n16, 0.0, sigma)
    n3 = cv2.merge([n16, n16, n16])
    chroma = float(rng.uniform(0.0, 0.6)) * sigma
    if chroma >= 0.5:
        small = np.empty((max(2, h // 2), max(2, w // 2), 3), np.int16)
        cv2.randn(small, (0.0, 0.0, 0.0), (chroma, chroma, chroma))
        n3 += cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    done["noise"] = sigma
    img[:] = cv2.add(out, n3, dtype=cv2.CV_8U)
    return done


def hand_and_sleeve(img: np.ndarray, ids: np.ndarray, rng: np.random.Generator) -> None:
    """A player's hand and sleeve reaching in from an image edge (occludes what it covers).

    Drawn as soft-edged layers lit from one side, so it reads as a rounded arm, not a sticker.
    """
    h, w = img.shape[:2]
    side = int(rng.integers(4))
    t = float(rng.uniform(0.1, 0.9))
    entry = np.array([(t * w, h + 5), (w + 5, t * h), (t * w, -5), (-5, t * h)][side], np.float32)
    inward = np.array([(0, -1), (-1, 0), (0, 1), (1, 0)][side], np.float32)
    inward = inward + rng.normal(0, 0.3, 2).astype(np.float32)
    inward /= np.linalg.norm(inward)
    reach = float(rng.uniform(0.18, 0.4)) * min(w, h)
    width = float(rng.uniform(0.08, 0.14)) * min(w, h)
    normal = np.array([-inward[1], inward[0]], np.float32)
    skins = ((150, 180, 225), (110, 150, 200), (70, 100, 150), (175, 200, 235), (120, 160, 210))
    skin = np.array(skins[int(rng.integers(len(skins)))], np.float32)
    sleeve = np.array(rng.integers(10, 230, 3), np.float32)
    wrist = entry + inward * reach * 0.6
    tip = entry + inward * reach
    # the layers are drawn in a box around the arm only
    far = tip + inward * reach * 0.25
    pts = np.array(
        [entry + normal * width, entry - normal * width, far + normal * width, far - normal * width]
    )
    x0, y0 = np.maximum(np.floor(pts.min(0)).astype(int) - 4, 0)
    x1, y1 = np.minimum(np.ceil(pts.max(0)).astype(int) + 4, [w, h])
    if x1 <= x0 or y1 <= y0:
        return
    off = np.array([x0, y0], np.float32)
    sw, sh = x1 - x0, y1 - y0
    sleeve_m = np.zeros((sh, sw), np.uint8)
    hand_m = np.zeros((sh, sw), np.uint8)
    arm = (
        np.array(
            [
                entry + normal * width * 0.75,
                entry - normal * width * 0.75,
                wrist - normal * width * 0.6,
                wrist + normal * width * 0.6,
            ]
        )
        - off
    )
    cv2.fillConvexPoly(sleeve_m, np.round(arm).astype(np.int32), 255, cv2.LINE_AA)
    palm = (wrist + tip) / 2 - inward * reach * 0.05 - off
    axes = (max(2, int(reach * 0.25)), max(2, int(width * 0.5)))
    ang = float(np.degrees(np.arctan2(inward[1], inward[0])))
    cv2.ellipse(hand_m, (int(palm[0]), int(palm[1])), axes, ang, 0, 360, 255, -1, cv2.LINE_AA)
    th = max(2, int(width * 0.17))
    curl = float(rng.uniform(0.0, 0.12))
    for k in range(4):  # fingers, the middle ones longest
        o = normal * width * (0.36 - 0.24 * k)
        length = (0.16, 0.2, 0.19, 0.14)[k] - curl
        p0 = tip - inward * reach * 0.12 + o - off
        p1 = tip + inward * reach * length + o - off
        cv2.line(hand_m, tuple(int(v) for v in p0), tuple(int(v) for v in p1), 255, th, cv2.LINE_AA)
    thumb0 = wrist + normal * width * 0.45 - off
    thumb1 = wrist + normal * width * 0.85 + inward * reach * 0.2 - off
    cv2.line(
        hand_m, tuple(int(v) for v in thumb0), tuple(int(v) for v in thumb1), 255, th, cv2.LINE_AA
    )
    # light falls across the arm: brighter on one flank
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    across = ((xx + x0 - entry[0]) * normal[0] + (yy + y0 - entry[1]) * normal[1]) / width
    light = (1.0 + 0.25 * float(rng.choice([-1, 1])) * np.clip(across, -1, 1)).astype(np.float32)
    roi = img[y0:y1, x0:x1].astype(np.float32)
    for mask, colour in ((sleeve_m, sleeve), (hand_m, skin)):
        soft = cv2.GaussianBlur(mask, (0, 0), max(0.8, width / 60)).astype(np.float32) / 255
        layer = colour[None, None, :] * light[:, :, None]
        roi = roi * (1 - soft[:, :, None]) + layer * soft[:, :, None]
        ids[y0:y1, x0:x1][soft > 0.5] = 0
    img[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
