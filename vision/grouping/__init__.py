"""Grouping: from tile boxes to the hand a referee would read.

Input: detections (tile name, axis-aligned box ``xyxy`` in pixels, confidence, an optional
``sideways`` flag). Output: the player's hand (concealed tiles, called melds with who they
came from, the winning tile, dora and ura indicators), the alternatives the layout also
allows, and warnings that name every doubt.

Steps, each a small function:

1. duplicates (boxes overlapping by IoU >= 0.6) are merged, with a warning;
2. rows are found on box centres (:mod:`vision.rows`), robust to rotation and perspective;
3. the hand row is the largest (nearest) row holding a complete hand (13-18 tiles, mostly
   face up); a colinear neighbour row is merged into it (a wide gap before the melds);
4. sideways tiles: each tile's aspect ratio *along the row*, relative to the row's upright
   tiles (foreshortening cancels out); a tile stacked on a sideways tile is an added kan;
5. gaps between neighbours, in units of the upright tile width;
6. both reading directions are parsed (a photo from across the table is upside down): melds
   are taken from the right end, the winning tile is the end tile laid sideways or set apart
   by a gap; every parse gets a penalty for what it leaves unexplained, the lowest wins
   (a row one tile too long is also read without its least confident tile, when that one
   is below ``LOW_CONFIDENCE``; kept only if it reads better, warned ``dropped_tile``);
7. indicator rows: parallel bands just above the hand (away from the player), first dora,
   then ura, at most 5 face-up tiles each.

Modules (each imports only modules listed above it):

- ``settings``: every tunable threshold and penalty, read as ``settings.NAME`` everywhere so
  that ``monkeypatch.setattr(settings, "NAME", value)`` reaches every step;
- ``values``: the frozen values (``Detection``, ``GroupingWarning``, ``Token``, ``MeldGroup``,
  ``Grouping``, ``GroupingResult``);
- ``memo``: results of the costly measuring steps reused within one ``group`` call (the
  what-if scores group the same boxes again), keyed on what each step read;
- ``duplicates``: step 1;
- ``row_geometry``: steps 3-5 on one row (``RowGeometry``: sideways tiles, pitch, gaps);
- ``melds``: step 6, parsing one reading direction;
- ``indicator_scorer``: a learned second opinion on which run holds the dora indicators;
- ``indicators``: step 7, the dora and ura bands (rivers, walls and dead walls told apart);
- ``hand_row``: finding the hand row and reading it (splits, stacked tiles, both directions);
- ``doubts``: doubtful judgements re-read together, tile-count and confidence warnings;
- ``group``: :func:`group_detections`, the whole step;
- ``what_if``: each uncertain tile's candidates scored (:func:`what_if`);
- ``request``: the ``group`` JSON interface (:func:`group_request`, :func:`parse_detection`);
- ``truth``: a generated scene's truth JSON as detections (benchmarks, the scorer's training);
- ``scorer_training``: fitting ``indicator_scorer``'s weights on generated scenes.

Names with a leading underscore are the package's own: siblings share them, other code
should not.

Conventions (also in README, "Grouping conventions"): the player reads the hand left to
right with the melds on the right; the called tile of a chi, pon or added kan is sideways
at position 1 (from the left player, kamicha), 2 (across, toimen) or 3 (right, shimocha);
for a daiminkan at position 1 (left), 2 or 3 (across) or 4 (right). A closed kan shows two
face-down tiles (both ends, or both middles). Tiles are named in MPSZ (``0m`` a red five),
``x`` (or the detector's ``back``) face down; in ``hand_tiles`` a sideways tile is written
``5'm``.

>>> dets = [Detection(t, (40.0 * i, 0.0, 40.0 * i + 30, 40.0)) for i, t in enumerate(
...     ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z"])]
>>> dets.append(Detection("2z", (40.0 * 13 + 20, 0.0, 40.0 * 13 + 50, 40.0)))
>>> result = group_detections(dets, width=600, height=100)
>>> result.best.closed_string(), result.best.win_tile, [w.code for w in result.warnings]
('123m456p789s1112z', '2z', ['no_dora_indicator'])
"""

from __future__ import annotations

from vision.grouping import settings
from vision.grouping.doubts import hand_detections
from vision.grouping.group import group_detections
from vision.grouping.request import group_request, parse_detection
from vision.grouping.values import (
    Detection,
    Grouping,
    GroupingResult,
    GroupingWarning,
    MeldGroup,
    Token,
)
from vision.grouping.what_if import what_if

__all__ = [
    "Detection",
    "Grouping",
    "GroupingResult",
    "GroupingWarning",
    "MeldGroup",
    "Token",
    "group_detections",
    "group_request",
    "hand_detections",
    "parse_detection",
    "settings",
    "what_if",
]
