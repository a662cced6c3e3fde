"""Rows of tiles from axis-aligned boxes: line fitting on box centres, robust to rotation.

A detector gives axis-aligned boxes, so a tilted row cannot be read off one box. The row's
direction comes from the *centres* of many boxes instead: pairs of nearby tiles propose a
line (RANSAC-style), the line that gathers the longest contiguous chain of centres wins, it
is refitted by principal components on its inliers, and the search repeats on what is
left. Perspective keeps straight rows straight, so a line is the right model even for
oblique photos; only the tile size changes along it, which is why every tolerance here is
in units of the local tile size.

Once a row's direction is known, each axis-aligned box is "un-rotated": a rectangle of
sides ``a`` (along the row) and ``b`` (across it) turned by ``theta`` has the box
``W = a|cos| + b|sin|``, ``H = a|sin| + b|cos|``, a 2x2 system solved for ``a`` and ``b``.
Near 45 degrees that system is singular; there the caller must rely on the detector's own
``sideways`` flag (documented in README, "Grouping conventions").

>>> import numpy as np
>>> boxes = np.array([[10 * i, 0, 10 * i + 7.5, 10] for i in range(5)], dtype=float)
>>> rows = find_rows(boxes)
>>> len(rows), rows[0].members
(1, (0, 1, 2, 3, 4))
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: A centre belongs to a line when closer than this many tile sizes (sqrt of box area).
#: Sideways tiles sit ~0.15 size off the line (aligned to the row's near edge); a kakan's
#: stacked tile ~0.9 size off it, and must *not* join the line.
PERP_TOLERANCE = 0.4
#: Consecutive centres further apart than this many tile sizes end a row (meld gaps are
#: usually under one tile; the next player's tiles are much further away).
MAX_CHAIN_GAP = 4.0
#: Pairs of centres further apart than this many tile sizes do not propose lines.
MAX_PAIR_DISTANCE = 6.0
#: Proposals (by raw inlier count, which long lines through a whole table can win) that are
#: grown into contiguous chains.
TOP_PROPOSALS = 80
#: Below this |cos 2 theta| the box un-rotation is ill-conditioned (theta near 45 degrees).
MIN_CONDITION = 0.3


@dataclass(frozen=True, slots=True)
class Row:
    """Tiles on one line, ``members`` sorted along ``direction`` (a unit vector).

    ``positions`` are the members' centres projected on the direction, ``offsets`` their
    signed distance from the line along the normal ``(-dy, dx)``.
    """

    members: tuple[int, ...]
    origin: tuple[float, float]
    direction: tuple[float, float]
    positions: tuple[float, ...]
    offsets: tuple[float, ...]

    def __len__(self) -> int:
        return len(self.members)


def centres_of(xyxy: np.ndarray) -> np.ndarray:
    """Box centres, ``(N, 2)``."""
    return np.stack([(xyxy[:, 0] + xyxy[:, 2]) / 2, (xyxy[:, 1] + xyxy[:, 3]) / 2], axis=1)


def sizes_of(xyxy: np.ndarray) -> np.ndarray:
    """A rotation-free tile size per box: the square root of its area, ``(N,)``."""
    w = np.clip(xyxy[:, 2] - xyxy[:, 0], 1e-6, None)
    h = np.clip(xyxy[:, 3] - xyxy[:, 1], 1e-6, None)
    return np.sqrt(w * h)


def extent_on(xyxy: np.ndarray, direction: Sequence[float]) -> np.ndarray:
    """Each box's extent projected on ``direction`` (a unit vector), ``(N,)``: what an
    axis-aligned box spans along it. It mixes a turned tile's two sides (:func:`unrotate`
    tells them apart, away from 45 degrees), but never collapses for thin boxes.

    >>> extent_on(np.array([[0.0, 0.0, 10.0, 4.0]]), (0.6, 0.8)).tolist()
    [9.2]
    """
    return abs(direction[0]) * (xyxy[:, 2] - xyxy[:, 0]) + abs(direction[1]) * (
        xyxy[:, 3] - xyxy[:, 1]
    )


def fit_line(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Total-least-squares line through points: ``(centroid, unit direction)``.

    The direction is normalised to point right (or down when vertical) so that results do
    not depend on the order of the points.

    >>> c, d = fit_line(np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]))
    >>> [round(float(v), 3) for v in d]
    [0.707, 0.707]
    """
    centroid = points.mean(axis=0)
    if len(points) < 2:
        return centroid, np.array([1.0, 0.0])
    _, _, vt = np.linalg.svd(points - centroid, full_matrices=False)
    d = vt[0]
    if d[0] < -1e-9 or (abs(d[0]) <= 1e-9 and d[1] < 0):
        d = -d
    return centroid, d / np.linalg.norm(d)


def _chain(positions: np.ndarray, seed: int, max_gap: np.ndarray) -> np.ndarray:
    """Indices (into ``positions``) of the contiguous run along the line containing seed."""
    order = np.argsort(positions, kind="stable")
    where = int(np.nonzero(order == seed)[0][0])
    lo = hi = where
    while lo > 0 and positions[order[lo]] - positions[order[lo - 1]] <= max_gap[order[lo]]:
        lo -= 1
    while (
        hi < len(order) - 1
        and positions[order[hi + 1]] - positions[order[hi]] <= max_gap[order[hi]]
    ):
        hi += 1
    return order[lo : hi + 1]


def _grow(
    centres: np.ndarray, sizes: np.ndarray, seed: int, origin: np.ndarray, d: np.ndarray
) -> np.ndarray:
    """Refit a proposed line on its contiguous inliers a few times; return the members."""
    members = np.array([seed])
    for _ in range(4):
        normal = np.array([-d[1], d[0]])
        rel = centres - origin
        perp = np.abs(rel @ normal)
        inl = np.nonzero(perp < PERP_TOLERANCE * sizes)[0]
        if seed not in inl:
            inl = np.append(inl, seed)
        pos = rel[inl] @ d
        gaps = MAX_CHAIN_GAP * sizes[inl]
        chain = inl[_chain(pos, int(np.nonzero(inl == seed)[0][0]), gaps)]
        if len(chain) <= len(members) and set(chain.tolist()) == set(members.tolist()):
            break
        members = chain
        if len(members) >= 3:
            origin, d = fit_line(centres[members])
    return members


def find_rows(xyxy: np.ndarray) -> list[Row]:
    """Split boxes ``(N, 4)`` into rows, longest first; leftovers become rows of one tile.

    Greedy: the line with the longest contiguous chain is taken out, then the next one.
    """
    xyxy = np.ascontiguousarray(xyxy, dtype=float).reshape(-1, 4)
    # Rows depend on the boxes alone, and the same boxes are grouped again for every
    # uncertain tile's what-if score (only a class changes): remember the last few.
    return list(_rows_of(xyxy.tobytes(), len(xyxy)))


@functools.lru_cache(maxsize=16)
def _rows_of(data: bytes, n: int) -> tuple[Row, ...]:
    return tuple(_find_rows(np.frombuffer(data, dtype=float).reshape(n, 4)))


def _find_rows(xyxy: np.ndarray) -> list[Row]:
    centres_all = centres_of(xyxy)
    sizes_all = sizes_of(xyxy)
    remaining = list(range(len(xyxy)))
    rows: list[Row] = []
    while remaining:
        idx = np.array(remaining)
        c, s = centres_all[idx], sizes_all[idx]
        best = _best_line(c, s)
        if best is None:
            for i in remaining:
                rows.append(_make_row(centres_all, [i]))
            break
        rows.append(_make_row(centres_all, idx[best].tolist()))
        taken = set(idx[best].tolist())
        remaining = [i for i in remaining if i not in taken]
    rows.sort(key=lambda r: -len(r))
    return rows


def _best_line(c: np.ndarray, s: np.ndarray) -> np.ndarray | None:
    """Members (local indices) of the best line among ``c``, or None when under two tiles."""
    n = len(c)
    if n < 2:
        return None
    diff = c[None, :, :] - c[:, None, :]
    dist = np.linalg.norm(diff, axis=2)
    scale = np.maximum(s[:, None], s[None, :])
    ok = (dist > 0.3 * scale) & (dist < MAX_PAIR_DISTANCE * scale)
    ii, jj = np.nonzero(np.triu(ok, 1))
    if len(ii) == 0:
        return None
    dirs = diff[ii, jj] / dist[ii, jj][:, None]
    normals = np.stack([-dirs[:, 1], dirs[:, 0]], axis=1)
    # Inlier counts of every proposal at once, then grow only the most promising ones.
    rel = c[None, :, :] - c[ii][:, None, :]
    perp = np.abs(np.einsum("hnk,hk->hn", rel, normals))
    counts = (perp < PERP_TOLERANCE * s[None, :]).sum(axis=1)
    top = np.argsort(-counts, kind="stable")[:TOP_PROPOSALS]
    best: np.ndarray | None = None
    best_key: tuple[float, float] | None = None
    for h in top:
        members = _grow(c, s, int(ii[h]), c[ii[h]], dirs[h])
        if len(members) < 2:
            continue
        origin, d = fit_line(c[members])
        resid = float(np.abs((c[members] - origin) @ np.array([-d[1], d[0]])).mean())
        key = (len(members), -resid / float(np.median(s[members])))
        if best_key is None or key > best_key:
            best, best_key = members, key
    return best


def _make_row(centres: np.ndarray, members: list[int]) -> Row:
    pts = centres[members]
    origin, d = fit_line(pts)
    if len(members) == 2:
        d = pts[1] - pts[0]
        d = d / max(float(np.linalg.norm(d)), 1e-9)
        if d[0] < -1e-9 or (abs(d[0]) <= 1e-9 and d[1] < 0):
            d = -d
    normal = np.array([-d[1], d[0]])
    pos = (pts - origin) @ d
    off = (pts - origin) @ normal
    order = np.argsort(pos, kind="stable")
    return Row(
        members=tuple(int(members[k]) for k in order),
        origin=(float(origin[0]), float(origin[1])),
        direction=(float(d[0]), float(d[1])),
        positions=tuple(float(pos[k]) for k in order),
        offsets=tuple(float(off[k]) for k in order),
    )


def unrotate(xyxy: np.ndarray, direction: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Each box's extent along the row and across it, ``(along, across)``.

    Solves the rotated-rectangle system described in the module docstring. Where the row
    is near 45 degrees the system is singular; the box's projections are returned instead
    (they cannot tell upright from sideways, see :func:`is_well_conditioned`).

    >>> a, b = unrotate(np.array([[0.0, 0.0, 10.0, 7.5]]), (0.0, 1.0))
    >>> float(a[0]), float(b[0])
    (7.5, 10.0)
    """
    w = xyxy[:, 2] - xyxy[:, 0]
    h = xyxy[:, 3] - xyxy[:, 1]
    c, s = abs(direction[0]), abs(direction[1])
    det = c * c - s * s
    if abs(det) < MIN_CONDITION:
        return w * c + h * s, w * s + h * c
    along = (w * c - h * s) / det
    across = (h * c - w * s) / det
    floor = 0.05 * np.sqrt(np.clip(w * h, 1e-9, None))
    return np.maximum(along, floor), np.maximum(across, floor)


def is_well_conditioned(direction: tuple[float, float]) -> bool:
    """Whether box aspect ratios can be un-rotated for a row in this direction."""
    return abs(direction[0] ** 2 - direction[1] ** 2) >= MIN_CONDITION
