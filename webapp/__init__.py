"""Agari's web app (Flask app factory) and the ``agari`` command line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The Flask app factory (see :mod:`webapp.app`).

    Imported lazily so that ``agari train`` / ``agari generate`` (``webapp.cli``) run in an
    environment without Flask, such as the training venv.
    """
    from webapp.app import create_app as _create_app

    return _create_app(test_config)


__all__ = ["create_app"]
