"""Zung Jung scoring (World Series of Mahjong): additive patterns instead of han and fu.

``scoring.api.score`` sends every request whose ruleset has ``scoring = "zung_jung"`` to
:func:`score_request`. The pieces: ``table_*.toml`` (the 44 patterns' values, each with its
source), :mod:`~scoring.zungjung.patterns` (one detector per pattern),
:mod:`~scoring.zungjung.evaluate` (every reading, one pattern per series, limits, the best),
:mod:`~scoring.zungjung.payoff` (who pays) and :mod:`~scoring.zungjung.adapter` (request in,
CONTRACT.md response out). Rules and sources: ``../shared/rules/WSOM.md``.
"""

from __future__ import annotations

from typing import Any

from scoring.ruleset import Ruleset
from scoring.zungjung.adapter import (
    Result,
    hand_from_request,
    response,
    score_hand,
    score_request,
    settle_request,
)
from scoring.zungjung.evaluate import Evaluation, Outcome, evaluate, readings
from scoring.zungjung.hand import Hand, Meld
from scoring.zungjung.payoff import payments, responsible_seat
from scoring.zungjung.table import Pattern, Table, load_table

__all__ = [
    "Evaluation",
    "Hand",
    "Meld",
    "Outcome",
    "Pattern",
    "Result",
    "Table",
    "evaluate",
    "hand_from_request",
    "load_table",
    "payments",
    "readings",
    "response",
    "responsible_seat",
    "rules_summary",
    "score_hand",
    "score_request",
    "settle_request",
]


def rules_summary(ruleset: Ruleset) -> dict[str, Any]:
    """What a Zung Jung ruleset scores with, for ``agari rules show``: the table, the
    constants and every pattern value with its source, plus the values that differ from
    Kwan's v3.3 table (where the sources disagree).

    >>> from scoring.ruleset import load_ruleset
    >>> s = rules_summary(load_ruleset("wsom"))
    >>> s["table"], s["min_points"], sorted(s["differs_from_v3_3"])
    ('v1.03', 5, ['pure_one_suit', 'small_three_dragons', 'small_three_winds'])
    """
    table = load_table(ruleset.zj_table)
    base = load_table("v3.3")
    return {
        "table": table.id,
        "title": table.title,
        "source": table.source,
        "min_points": ruleset.zj_min_points,
        "payoff": ruleset.zj_payoff,
        "compound_limit": table.compound_limit,
        "chicken_value": table.chicken_value,
        "par": table.par,
        "constant_sources": dict(table.constant_sources),
        "differs_from_v3_3": {
            pid: {"value": p.value, "v3.3": base.value(pid), "source": p.source}
            for pid, p in table.patterns.items()
            if p.value != base.value(pid)
        },
        "patterns": table.describe(),
    }
