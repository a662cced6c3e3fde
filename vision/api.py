"""The public vision API: photo bytes in, the ``recognize`` / ``group`` JSON of CONTRACT.md out."""

from __future__ import annotations

from typing import Any

from scoring.errors import AgariError


def recognize(image: bytes) -> dict[str, Any]:
    """Detect every tile in a photo (JPEG/PNG/... bytes) and rebuild the hand."""
    raise AgariError("recognize is not implemented yet", code="not_implemented")


def group(request: dict[str, Any]) -> dict[str, Any]:
    """Rebuild the hand from detections (``{"width", "height", "detections"}``)."""
    raise AgariError("group is not implemented yet", code="not_implemented")
