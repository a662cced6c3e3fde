"""A pinhole camera looking at the table (world units: millimetres, z up, table at z = 0).

Azimuth 0 puts the camera on the hand owner's side (-y) looking across the table; 180 is the
photo taken from across the table, where the owner's tiles appear upside down.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Camera:
    #: World-to-camera rotation (rows: image right, image down, forward) and centre (mm).
    R: np.ndarray
    C: np.ndarray
    fx: float
    cx: float
    cy: float
    width: int
    height: int

    @classmethod
    def look_at(
        cls,
        target: np.ndarray,
        *,
        distance: float,
        elevation_deg: float,
        azimuth_deg: float,
        roll_deg: float,
        hfov_deg: float,
        width: int,
        height: int,
    ) -> Camera:
        el, az, roll = np.radians([elevation_deg, azimuth_deg, roll_deg])
        back = np.array([np.sin(az) * np.cos(el), -np.cos(az) * np.cos(el), np.sin(el)])
        C = np.asarray(target, float) + distance * back
        f = -back
        r = np.array([np.cos(az), np.sin(az), 0.0])
        d = np.cross(f, r)
        # roll turns the image around the optical axis (portrait and tilted shots)
        cr, sr = np.cos(roll), np.sin(roll)
        r2, d2 = cr * r + sr * d, -sr * r + cr * d
        R = np.stack([r2, d2, f])
        fx = (width / 2) / np.tan(np.radians(hfov_deg) / 2)
        return cls(R, C, float(fx), width / 2, height / 2, width, height)

    def to_cam(self, pts: np.ndarray) -> np.ndarray:
        return (np.asarray(pts, float) - self.C) @ self.R.T

    def project(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Pixel coordinates (N, 2) and depths (N,) of world points (N, 3)."""
        pc = self.to_cam(pts)
        z = pc[:, 2]
        zs = np.where(z > 1e-6, z, 1e-6)
        uv = np.stack([self.fx * pc[:, 0] / zs + self.cx, self.fx * pc[:, 1] / zs + self.cy], 1)
        return uv, z

    def plane_homography(self) -> np.ndarray:
        """3x3 map from table points (x, y, 1) in mm to image pixels."""
        K = np.array([[self.fx, 0, self.cx], [0, self.fx, self.cy], [0, 0, 1.0]])
        t = -self.R @ self.C
        return K @ np.stack([self.R[:, 0], self.R[:, 1], t], 1)

    def ray_z(self) -> np.ndarray:
        """Per pixel, the world z component of the viewing ray (negative: it meets the table)."""
        v = np.arange(self.height, dtype=np.float32)[:, None]
        u = np.arange(self.width, dtype=np.float32)[None, :]
        a, b, c = (float(x) for x in self.R.T[2])  # camera -> world, z row
        return (a / self.fx) * (u - self.cx) + ((b / self.fx) * (v - self.cy) + c)
