"""The one error hierarchy of Agari.

Every error a user can cause is an :class:`AgariError` with a stable ``code`` (used by the
CLI's JSON output and the HTTP API) and a message that quotes the bad input. Scoring, vision
and the web app all raise these; nothing returns error strings. ``AgariError`` subclasses
``ValueError`` so callers that only know the standard library still catch it.
"""

from __future__ import annotations

from typing import Any


class AgariError(ValueError):
    """Base of every error Agari reports to a user. ``code`` is stable; messages may change."""

    code: str = "agari_error"
    #: HTTP status the web API answers with.
    http_status: int = 400

    def __init__(self, message: str, *, code: str | None = None, **details: Any) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        """The ``{"code", "message"}`` object of CONTRACT.md (plus any details)."""
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            out["details"] = self.details
        return out


class NotationError(AgariError):
    """Malformed tile, hand or meld notation."""

    code = "bad_notation"


class InvalidHandError(AgariError):
    """Impossible tile counts or a contradictory situation (riichi with an open hand...)."""

    code = "invalid_hand"
    http_status = 422


class NotAWinError(AgariError):
    """The tiles do not form a complete hand."""

    code = "not_a_win"
    http_status = 422


class NoYakuError(AgariError):
    """A complete hand without any yaku (or below the ruleset's minimum)."""

    code = "no_yaku"
    http_status = 422


class RulesetError(AgariError):
    """Unknown ruleset, or a ruleset file / override that is invalid."""

    code = "bad_ruleset"


class RequestError(AgariError):
    """A request object of the JSON interface is malformed (unknown field, wrong type)."""

    code = "bad_request"


class ImageError(AgariError):
    """An unreadable, empty, truncated or oversized image."""

    code = "bad_image"


class ModelError(AgariError):
    """The detector model is missing or does not match what the code expects."""

    code = "bad_model"
    http_status = 500
