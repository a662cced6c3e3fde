"""Check an uploaded photo before any decoder of the vision side sees it.

Only the header is read before the size checks, so a decompression bomb (a small file that
claims 50 000 x 50 000 pixels) is refused without allocating its pixels. Then the whole
stream is decoded once (JPEG at 1/8 scale, which still reads every byte) so that a
truncated upload is an error here rather than a half-grey photo with a plausible score.
EXIF orientation is applied, so the boxes the detector returns are in the upright photo a
browser shows. Nothing is written to disk.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

from scoring.errors import ImageError

#: Formats we accept, by Pillow's name. HEIC arrives as JPEG from phones' file pickers.
ACCEPTED_FORMATS = frozenset({"JPEG", "PNG", "WEBP", "MPO"})
_EXIF_ORIENTATION = 0x0112


@dataclass(frozen=True, slots=True)
class CheckedImage:
    """An upload that passed every check: bytes ready for ``vision.api.recognize``."""

    data: bytes
    format: str
    width: int
    height: int
    rotated: bool


def check_image(data: bytes, *, max_pixels: int) -> CheckedImage:
    """Validate an upload; raise :class:`ImageError` with a specific code when it fails.

    >>> buf = io.BytesIO(); Image.new("RGB", (8, 6)).save(buf, "PNG")
    >>> check_image(buf.getvalue(), max_pixels=100).width
    8
    >>> check_image(b"hello", max_pixels=100)
    Traceback (most recent call last):
    ...
    scoring.errors.ImageError: the upload is not an image (JPEG, PNG or WebP expected)
    """
    if not data:
        raise ImageError("the upload is empty", code="empty_image")
    # Pillow warns (an error under our test settings) for large images; we check ourselves.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            img = Image.open(io.BytesIO(data))
        except (UnidentifiedImageError, Image.DecompressionBombError) as exc:
            if isinstance(exc, Image.DecompressionBombError):
                raise ImageError(str(exc), code="too_many_pixels") from None
            raise ImageError(
                "the upload is not an image (JPEG, PNG or WebP expected)", code="not_an_image"
            ) from None
        with img:
            return _check_open(img, data, max_pixels)


def _check_open(img: Image.Image, data: bytes, max_pixels: int) -> CheckedImage:
    fmt = img.format or "?"
    if fmt not in ACCEPTED_FORMATS:
        raise ImageError(
            f"images of format {fmt!r} are not accepted (JPEG, PNG or WebP expected)",
            code="unsupported_image",
        )
    width, height = img.size
    if width * height > max_pixels:
        raise ImageError(
            f"the photo has {width} x {height} = {width * height / 1e6:.1f} MP; "
            f"at most {max_pixels / 1e6:.0f} MP are accepted",
            code="too_many_pixels",
        )
    if width < 16 or height < 16:
        raise ImageError(f"the photo is only {width} x {height} pixels", code="image_too_small")
    try:
        # Reading EXIF may walk the whole file (PNG keeps it anywhere), so it is checked too.
        orientation = img.getexif().get(_EXIF_ORIENTATION, 1)
        if fmt in ("JPEG", "MPO") and orientation in (1, None):
            img.draft("RGB", (max(1, width // 8), max(1, height // 8)))
        img.load()
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageError(
            f"the image data is truncated or corrupt ({exc})", code="truncated_image"
        ) from None
    if orientation in (1, None):
        return CheckedImage(data, fmt, width, height, rotated=False)
    upright = ImageOps.exif_transpose(img)
    out = io.BytesIO()
    if fmt == "PNG":
        upright.save(out, "PNG")
    else:
        upright.convert("RGB").save(out, "JPEG", quality=95)
    return CheckedImage(out.getvalue(), fmt, upright.width, upright.height, rotated=True)
