"""Riichi-mahjong scoring: tiles, hand decomposition, yaku, fu, limits, payments, settlement.

Pure Python, no vision or web imports. The public API for other packages is re-exported
here; everything else is an implementation detail.
"""

from __future__ import annotations

from scoring.errors import (
    AgariError,
    InvalidHandError,
    NotationError,
    NotAWinError,
    NoYakuError,
    RequestError,
    RulesetError,
)
from scoring.ruleset import Ruleset, list_rulesets, load_ruleset, resolve_ruleset
from scoring.tiles import Tile

__all__ = [
    "AgariError",
    "InvalidHandError",
    "NoYakuError",
    "NotAWinError",
    "NotationError",
    "RequestError",
    "Ruleset",
    "RulesetError",
    "Tile",
    "list_rulesets",
    "load_ruleset",
    "resolve_ruleset",
]
