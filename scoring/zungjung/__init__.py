"""Zung Jung scoring (World Series of Mahjong): additive patterns instead of han and fu.

``scoring.api.score`` sends every request whose ruleset has ``scoring = "zung_jung"`` to
:func:`score_request`. The pieces: ``table_*.toml`` (the 44 patterns' values, each with its
source), :mod:`~scoring.zungjung.patterns` (one detector per pattern),
:mod:`~scoring.zungjung.evaluate` (every reading, one pattern per series, limits, the best),
:mod:`~scoring.zungjung.payoff` (who pays) and :mod:`~scoring.zungjung.adapter` (request in,
CONTRACT.md response out). Rules and sources: ``../shared/rules/WSOM.md``.
"""

from __future__ import annotations

from scoring.zungjung.adapter import Result, hand_from_request, response, score_hand, score_request
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
    "score_hand",
    "score_request",
]
