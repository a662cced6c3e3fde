"""Check an uploaded photo before any decoder of the vision side sees it.

Only the header is read before the size checks, so a decompression bomb (a small file that
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
import warnings
from dataclasses import dataclass

import pillow_heif
from PIL import Image, ImageOps, UnidentifiedImageError

from scoring.errors import ImageError

# Lets Pillow open HEIC/HEIF (iPhone photos saved as files, not through a browser picker).
pillow_heif.register_heif_opener()

#: Formats we accept, by Pillow's name.
ACCEPTED_FORMATS = frozenset({"JPEG", "PNG", "WEBP", "MPO", "HEIF"})
_EXIF_ORIENTATION = 0x0112
#: Orientations that swap width and height.
_TRANSPOSED = frozenset({5, 6, 7, 8})


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

    >>> buf = io.BytesIO(); Image.new("RGB", (8, 6)).save(buf, "PNG")
    >>> check_image(buf.getvalue(), max_pixels=100).width
    8
    >>> check_image(b"hello", max_pixels=100)
    Traceback (most recent call last):
    ...
    scoring.errors.ImageError: the upload is not an image (JPEG, PNG, WebP or HEIC expected)
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
                "the upload is not an image (JPEG, PNG, WebP or HEIC expected)", code="not_an_image"
            ) from None
        with img:
            return _check_open(img, data, max_pixels)


def _check_open(img: Image.Image, data: bytes, max_pixels: int) -> CheckedImage:
    fmt = img.format or "?"
    if fmt not in ACCEPTED_FORMATS:
        raise ImageError(
            f"images of format {fmt!r} are not accepted (JPEG, PNG, WebP or HEIC expected)",
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
        if fmt in ("JPEG", "MPO"):
            img.draft("RGB", (max(1, width // 8), max(1, height // 8)))
        img.load()
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageError(
            f"the image data is truncated or corrupt ({exc})", code="truncated_image"
        ) from None
    orientation = int(orientation or 1)
    if fmt != "HEIF":
        if orientation in _TRANSPOSED:
            width, height = height, width
        return CheckedImage(data, fmt, width, height, orientation)
    upright = ImageOps.exif_transpose(img).convert("RGB")
    out = io.BytesIO()
    upright.save(out, "JPEG", quality=92)
    return CheckedImage(out.getvalue(), fmt, upright.width, upright.height, orientation)
