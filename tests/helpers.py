"""Values shared by tests of several packages."""

from __future__ import annotations

from typing import Any

#: CONTRACT.md's example score request (under tenhou): 3 han 30 fu, 3900 + 1 honba.
CONTRACT_SCORE_EXAMPLE: dict[str, Any] = {
    "ruleset": "tenhou",
    "closed": "234m406p78s11z",
    "win_tile": "9s",
    "win": "ron",
    "melds": [{"kind": "pon", "tiles": "555z", "from": "left"}],
    "round_wind": "E",
    "seat_wind": "S",
    "discarder": "W",
    "dora_indicators": ["4p"],
    "ura_indicators": [],
    "flags": [],
    "honba": 1,
    "riichi_sticks": 2,
    "pao": None,
}
