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
    """Score one winning hand (``agari score`` / ``POST /api/v1/score``).

    Raises :class:`~scoring.errors.RequestError` (unknown field, wrong type),
    :class:`~scoring.errors.NotationError`, :class:`~scoring.errors.InvalidHandError`
    (impossible tiles or a contradictory situation), :class:`~scoring.errors.NotAWinError`
    and :class:`~scoring.errors.NoYakuError`.
    """
    from scoring.request import parse_score_request

    req = parse_score_request(request)
    if req.ruleset.scoring == "zung_jung":
        return _zung_jung(req)
    from scoring.scorer import score_request

    return score_request(req).to_dict()


def _zung_jung(req: Any) -> dict[str, Any]:
    """Zung Jung hands go to their own scorer (``scoring.zungjung``), imported lazily."""
    try:
        from scoring.zungjung import score_request as zj_score_request
    except ModuleNotFoundError as exc:
        if exc.name != "scoring.zungjung":  # a real bug inside it must not be hidden
            raise
        raise AgariError(
            "the Zung Jung scorer (scoring.zungjung) is not available in this build",
            code="not_implemented",
        ) from exc
    return zj_score_request(req, req.ruleset)


def ruleset_summary(spec: Any) -> dict[str, Any]:
    """The ruleset a request's ``ruleset`` field names (an id or ``{"base", "overrides"}``):
    its id, name and red fives per suit. Raises :class:`~scoring.errors.RulesetError`
    (``unknown_ruleset``, ``bad_ruleset_value``, ``unknown_rule``) as scoring would, so
    that callers holding a ruleset for later (the photo path) refuse a bad one at once."""
    from scoring.ruleset import resolve_ruleset

    rs = resolve_ruleset(spec)
    return {"id": rs.id, "name": rs.name, "red_fives": dict(rs.red_fives)}


def check_context(context: Any) -> None:
    """Refuse a what-if ``context`` (the photo path's score request fields) with an unknown
    field or a wrong value (:class:`~scoring.errors.RequestError`, or
    :class:`~scoring.errors.RulesetError` for its ruleset) as scoring would, at once."""
    from scoring.request import check_context as check

    check(context)


def settle(request: dict[str, Any]) -> dict[str, Any]:
    """Settle one discard's wins with the table state (``agari settle`` / ``/api/v1/settle``)."""
    from scoring.payments import settle_request
    from scoring.request import parse_settle_request

    sreq = parse_settle_request(request)
    if sreq.ruleset.scoring == "zung_jung":  # patterns, not han: Zung Jung's own settlement
        from scoring.zungjung import settle_request as zj_settle_request

        return zj_settle_request(sreq)
    return settle_request(sreq)


def standings(request: dict[str, Any]) -> dict[str, Any]:
    """Final standings of a game (``agari standings`` / ``/api/v1/standings``)."""
    from scoring.standings import standings_request

    return standings_request(request)


def replay_game(request: dict[str, Any], *, trusted_hands: int = 0) -> dict[str, Any]:
    """Replay a list of hand outcomes under a ruleset (``agari game``).

    ``trusted_hands``: the first so many hands were accepted before (a stored table): the
    plausibility checks of typed points added since do not refuse them."""
    from scoring.game import TRUSTED_HANDS, replay_request

    token = TRUSTED_HANDS.set(trusted_hands)
    try:
        return replay_request(request)
    finally:
        TRUSTED_HANDS.reset(token)
