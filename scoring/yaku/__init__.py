"""Yaku: a registry of small pure tests (``registry``) and every yaku (``definitions``).

>>> "kokushi_13_wait" in YAKU_IDS and "seat_wind_east" in YAKU_IDS
True
"""

from __future__ import annotations

from scoring.yaku import definitions as _definitions  # noqa: F401  (registers every yaku)
from scoring.yaku.registry import REGISTRY, YAKUMAN_HAN, YakuDef, evaluate, yaku

#: Every yaku id the scorer can report, dora included.
YAKU_IDS: frozenset[str] = frozenset(d.id for d in REGISTRY) | {
    "dora",
    "ura_dora",
    "aka_dora",
    "nagashi_mangan",
}

__all__ = ["REGISTRY", "YAKUMAN_HAN", "YAKU_IDS", "YakuDef", "evaluate", "yaku"]
