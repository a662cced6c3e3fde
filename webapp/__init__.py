"""Agari's web app (Flask app factory) and the ``agari`` command line."""

from __future__ import annotations

from webapp.app import create_app

__all__ = ["create_app"]
