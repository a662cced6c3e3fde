"""The public scoring API: the functions the CLI, the web app and vision's what-if scoring call.

Each takes and returns the JSON objects of ``../shared/api/CONTRACT.md`` (plain dicts) and
raises :class:`scoring.errors.AgariError` subclasses for bad input, never a wrong result.
"""

from __future__ import annotations

from typing import Any

from scoring.errors import AgariError


def _pending(what: str) -> AgariError:
    return AgariError(f"{what} is not implemented yet", code="not_implemented")


def score(request: dict[str, Any]) -> dict[str, Any]:
    """Score one winning hand (``agari score`` / ``POST /api/v1/score``)."""
    raise _pending("score")


def settle(request: dict[str, Any]) -> dict[str, Any]:
    """Settle one discard's wins with the table state (``agari settle`` / ``/api/v1/settle``)."""
    raise _pending("settle")


def standings(request: dict[str, Any]) -> dict[str, Any]:
    """Final standings of a game (``agari standings`` / ``/api/v1/standings``)."""
    raise _pending("standings")


def replay_game(request: dict[str, Any]) -> dict[str, Any]:
    """Replay a list of hand outcomes under a ruleset (``agari game``)."""
    raise _pending("game replay")
