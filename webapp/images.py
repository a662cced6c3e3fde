"""Check an uploaded photo before any decoder of the vision side sees it.

Only the header is read before the size checks (``vision.image_io.open_image``, shared
with the decoder), so a decompression bomb (a small file that
claims 50 000 x 50 000 pixels) is refused without allocating its pixels. Then the whole
stream is decoded once (JPEG at 1/8 scale, which still reads every byte) so that a
truncated upload is an error here rather than a half-grey photo with a plausible score.
JPEG, PNG and WebP bytes go on unchanged (``vision`` applies their EXIF orientation, so the
boxes it returns are in the upright photo a browser shows); HEIC/HEIF photos, which the
detector's decoder need not know, are turned upright and re-encoded as JPEG. Nothing is
written to disk.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass

import pillow_heif
from PIL import Image, ImageOps

from scoring.errors import ImageError
from vision.image_io import ORIENTATION_TAG, TRANSPOSED_ORIENTATIONS, open_image

# Lets Pillow open HEIC/HEIF (iPhone photos saved as files, not through a browser picker).
pillow_heif.register_heif_opener()

#: Formats we accept, by Pillow's name.
ACCEPTED_FORMATS = frozenset({"JPEG", "PNG", "WEBP", "MPO", "HEIF"})

#: 48 MP phones exist; 40 MP decoded is ~120 MB of RGB, the most one photo may cost. The web
#: app's ``MAX_IMAGE_PIXELS`` and ``agari recognize``'s cap alike (:func:`pixel_cap`), so
#: that the same photo gets the same answer from both.
MAX_IMAGE_PIXELS = 40_000_000


def pixel_cap(environ: Mapping[str, str] = os.environ) -> int:
    """The pixel cap ``AGARI_MAX_IMAGE_PIXELS`` sets, read as the web app reads it (Flask's
    ``from_prefixed_env``: a JSON value), or :data:`MAX_IMAGE_PIXELS`.

    >>> pixel_cap({}), pixel_cap({"AGARI_MAX_IMAGE_PIXELS": "20000000"})
    (40000000, 20000000)
    """
    raw = environ.get("AGARI_MAX_IMAGE_PIXELS")
    return MAX_IMAGE_PIXELS if raw is None else int(json.loads(raw))


@dataclass(frozen=True, slots=True)
class CheckedImage:
    """An upload that passed every check: bytes ready for ``vision.api.recognize``, and
    the size of the photo as it is viewed (EXIF orientation applied)."""

    data: bytes
    format: str
    width: int
    height: int
    orientation: int


def check_image(data: bytes, *, max_pixels: int) -> CheckedImage:
    """Validate an upload; raise :class:`ImageError` with a specific code when it fails.

    >>> buf = io.BytesIO(); Image.new("RGB", (32, 24)).save(buf, "PNG")
    >>> check_image(buf.getvalue(), max_pixels=1000).width
    32
    >>> check_image(b"hello", max_pixels=100)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scoring.errors.ImageError: not a readable image (JPEG, PNG, WebP or HEIC expected; ...
    """
    img = open_image(data, max_pixels=max_pixels)
    with img:
        return _check_open(img, data)


def _check_open(img: Image.Image, data: bytes) -> CheckedImage:
    fmt = img.format or "?"
    if fmt not in ACCEPTED_FORMATS:
        raise ImageError(
            f"images of format {fmt!r} are not accepted (JPEG, PNG, WebP or HEIC expected)",
            code="unsupported_image",
        )
    width, height = img.size  # open_image has refused more than max_pixels
    if width < 16 or height < 16:
        raise ImageError(f"the photo is only {width} x {height} pixels", code="image_too_small")
    try:
        # Reading EXIF may walk the whole file (PNG keeps it anywhere), so it is checked too.
        orientation = img.getexif().get(ORIENTATION_TAG, 1)
        if fmt in ("JPEG", "MPO"):
            img.draft("RGB", (max(1, width // 8), max(1, height // 8)))
        img.load()
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageError(
            f"the image data is truncated or corrupt ({exc})", code="truncated_image"
        ) from None
    orientation = int(orientation or 1)
    if fmt != "HEIF":
        if orientation in TRANSPOSED_ORIENTATIONS:
            width, height = height, width
        return CheckedImage(data, fmt, width, height, orientation)
    upright = ImageOps.exif_transpose(img).convert("RGB")
    out = io.BytesIO()
    upright.save(out, "JPEG", quality=92)
    return CheckedImage(out.getvalue(), fmt, upright.width, upright.height, orientation)
