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
    gain3 = cv2.resize(gain.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    f = img.astype(np.float32)
    f *= gain3[:, :, None]
    f *= wb
    if glare is not None:
        f += cv2.resize(glare.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)[
            :, :, None
        ]
    out = np.clip(f, 0, 255).astype(np.uint8)
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
    # sensor noise: read noise, sometimes shot-like (stronger in the bright parts)
    sigma = float(rng.uniform(1.0, 7.0))
    noise = rng.standard_normal((h, w), dtype=np.float32)
    noise *= sigma
    f = out.astype(np.float32)
    if rng.random() < 0.5:
        f += noise[:, :, None] * np.sqrt(np.maximum(f, 1) * (1 / 128))
    else:
        f += noise[:, :, None]
    done["noise"] = sigma
    np.clip(f, 0, 255, out=f)
    img[:] = f.astype(np.uint8)
    return done


def hand_and_sleeve(img: np.ndarray, ids: np.ndarray, rng: np.random.Generator) -> None:
    """A player's hand and sleeve reaching in from an image edge (occludes what it covers)."""
    h, w = img.shape[:2]
    side = int(rng.integers(4))
    t = float(rng.uniform(0.1, 0.9))
    entry = [(t * w, h + 5), (w + 5, t * h), (t * w, -5), (-5, t * h)][side]
    inward = np.array([(0, -1), (-1, 0), (0, 1), (1, 0)][side], np.float32)
    inward = inward + rng.normal(0, 0.3, 2).astype(np.float32)
    inward /= np.linalg.norm(inward)
    reach = float(rng.uniform(0.15, 0.35)) * min(w, h)
    width = float(rng.uniform(0.07, 0.13)) * min(w, h)
    normal = np.array([-inward[1], inward[0]])
    e = np.array(entry, np.float32)
    tip = e + inward * reach
    skin = np.array(
        ((150, 180, 225), (110, 150, 200), (70, 100, 150), (175, 200, 235))[int(rng.integers(4))],
        float,
    )
    sleeve = np.array(rng.integers(10, 230, 3), float)
    wrist = e + inward * reach * 0.55
    arm = np.array(
        [
            e + normal * width * 0.7,
            e - normal * width * 0.7,
            wrist - normal * width * 0.6,
            wrist + normal * width * 0.6,
        ],
        np.float32,
    )
    cv2.fillConvexPoly(img, np.round(arm).astype(np.int32), tuple(sleeve), cv2.LINE_AA)
    cv2.fillConvexPoly(ids, np.round(arm).astype(np.int32), 0)
    centre = (wrist + tip) / 2
    axes = (int(reach * 0.28), int(width * 0.55))
    ang = float(np.degrees(np.arctan2(inward[1], inward[0])))
    c = (int(centre[0]), int(centre[1]))
    cv2.ellipse(img, c, axes, ang, 0, 360, tuple(skin), -1, cv2.LINE_AA)
    cv2.ellipse(ids, c, axes, ang, 0, 360, 0, -1)
    for k in range(4):  # fingers
        off = normal * width * (0.36 - 0.24 * k)
        p0 = tip - inward * reach * 0.15 + off
        p1 = tip + inward * reach * float(rng.uniform(0.02, 0.12)) + off
        th = max(2, int(width * 0.16))
        cv2.line(
            img,
            tuple(int(v) for v in p0),
            tuple(int(v) for v in p1),
            tuple(skin * 0.95),
            th,
            cv2.LINE_AA,
        )
        cv2.line(ids, tuple(int(v) for v in p0), tuple(int(v) for v in p1), 0, th)
