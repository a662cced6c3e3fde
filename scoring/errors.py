"""The one error hierarchy of Agari.

Every error a user can cause is an :class:`AgariError` with a stable ``code`` (used by the
CLI's JSON output and the HTTP API) and a message that quotes the bad input. Scoring, vision
and the web app all raise these; nothing returns error strings. ``AgariError`` subclasses
``ValueError`` so callers that only know the standard library still catch it.

:func:`parse_json` is the one place a user's JSON text becomes a value: every way it can
fail is the same ``bad_json`` error, for the web app, the CLI and vision alike.
"""

from __future__ import annotations

import json
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


def parse_json(text: str | bytes, *, what: str) -> Any:
    """The value of a user's JSON ``text``, or :class:`RequestError` ``bad_json`` whose
    message says ``what`` was not valid JSON and why.

    ``json.loads`` fails four ways: bad syntax (``JSONDecodeError``), bytes that are not
    UTF-8 (``UnicodeDecodeError``), arrays or objects nested deeper than the parser goes
    (``RecursionError`` on ``"[[[[..."``) and an integer of more digits than Python converts
    (a plain ``ValueError``, over 4,300 digits); each is the user's bad input, never a 500.

    >>> parse_json('{"honba": 1}', what="the body")
    {'honba': 1}
    >>> parse_json('{"honba": ', what="the line")
    Traceback (most recent call last):
    ...
    scoring.errors.RequestError: the line is not valid JSON: Expecting value (column 11)
    >>> parse_json("[" * 100_000, what="the body")
    Traceback (most recent call last):
    ...
    scoring.errors.RequestError: the body is not valid JSON: nested too deeply
    >>> parse_json('{"honba": 1' + "0" * 5000 + "}", what="the line")
    Traceback (most recent call last):
    ...
    scoring.errors.RequestError: the line is not valid JSON: a number has too many digits
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        # A one-line text (a JSON Lines request, a form field) needs only the column.
        where = (
            f"line {exc.lineno}, column {exc.colno}" if exc.lineno > 1 else f"column {exc.colno}"
        )
        reason = f"{exc.msg} ({where})"
    except UnicodeDecodeError:
        reason = "not UTF-8"
    except RecursionError:
        reason = "nested too deeply"
    except ValueError:  # after its subclasses: int() refusing a number of 4,300+ digits
        reason = "a number has too many digits"
    raise RequestError(f"{what} is not valid JSON: {reason}", code="bad_json")
