"""From han and fu to basic points and the limit name.

Basic points are ``fu * 2**(han + 2)``, capped at mangan (2000); 6-7 han haneman (3000),
8-10 baiman (4000), 11-12 sanbaiman (6000), 13+ kazoe (``Ruleset.kazoe``: a yakuman, or
sanbaiman), yakuman 8000 per unit. With ``Ruleset.kiriage`` 4 han 30 fu and 3 han 60 fu
round up to mangan.

>>> from scoring.ruleset import load_ruleset
>>> base_points(3, 30, 0, load_ruleset("tenhou"))
(960, None)
>>> base_points(13, 30, 0, load_ruleset("tenhou"))
(8000, 'yakuman')
"""

from __future__ import annotations

from typing import Literal

from scoring.ruleset import Ruleset

Limit = Literal["mangan", "haneman", "baiman", "sanbaiman", "yakuman"]
LIMITS: tuple[Limit, ...] = ("mangan", "haneman", "baiman", "sanbaiman", "yakuman")
LIMIT_BASE: dict[str, int] = {
    "mangan": 2000,
    "haneman": 3000,
    "baiman": 4000,
    "sanbaiman": 6000,
    "yakuman": 8000,
}


def base_points(han: int, fu: int, yakuman: int, rs: Ruleset) -> tuple[int, Limit | None]:
    """Basic points and limit of a hand (``yakuman``: the yakuman units, 0 if none)."""
    if yakuman:
        return 8000 * yakuman, "yakuman"
    if han >= 13:
        return (8000, "yakuman") if rs.kazoe == "yakuman" else (6000, "sanbaiman")
    if han >= 11:
        return 6000, "sanbaiman"
    if han >= 8:
        return 4000, "baiman"
    if han >= 6:
        return 3000, "haneman"
    if han >= 5:
        return 2000, "mangan"
    base = fu * 2 ** (han + 2)
    if base >= 2000 or (rs.kiriage and (han, fu) in ((4, 30), (3, 60))):
        return 2000, "mangan"
    return base, None


__all__ = ["LIMITS", "LIMIT_BASE", "Limit", "base_points"]
