"""Photo bytes to an upright RGB array, with a clear :class:`ImageError` for bad input.

A 12 MP phone JPEG is decoded at a reduced scale by libjpeg itself (Pillow's ``draft``),
which is several times faster than a full decode and still leaves more pixels than both
detector passes use. The whole stream is still read, so a truncated file is an error.
EXIF orientation is applied, so boxes are in the upright photo a viewer shows.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

import numpy as np
from PIL import Image, UnidentifiedImageError

from scoring.errors import ImageError

MAX_PIXELS = 50_000_000
#: Decode JPEGs at the smallest libjpeg scale (1/2, 1/4, 1/8) keeping this long side: a
#: 4032x3024 photo decodes at 1/4 (1008x756), twice the detector's input, in a third of the
#: time of a full decode. The zoomed pass asks for more pixels when it needs them.
DECODE_LONG_SIDE = 1000
ORIENTATION_TAG = 0x0112
#: EXIF orientations that swap width and height.
TRANSPOSED_ORIENTATIONS = frozenset({5, 6, 7, 8})
_TRANSPOSE = {
    2: (Image.Transpose.FLIP_LEFT_RIGHT,),
    3: (Image.Transpose.ROTATE_180,),
    4: (Image.Transpose.FLIP_TOP_BOTTOM,),
    5: (Image.Transpose.TRANSPOSE,),
    6: (Image.Transpose.ROTATE_270,),
    7: (Image.Transpose.TRANSVERSE,),
    8: (Image.Transpose.ROTATE_90,),
}


@dataclass(frozen=True)
class Photo:
    """An upright RGB photo, possibly decoded smaller than its true size.

    ``width``/``height`` are the upright photo's real size; ``pixels`` may be smaller, and
    ``scale`` (real pixels per array pixel) maps boxes back.
    """

    pixels: np.ndarray
    width: int
    height: int

    @property
    def scale(self) -> float:
        return self.width / self.pixels.shape[1]


def open_image(data: bytes, *, max_pixels: int = MAX_PIXELS) -> Image.Image:
    """Open photo bytes reading only the header, and refuse what no decoder should see:
    nothing, bytes that are not an image, or more than ``max_pixels`` (a decompression bomb
    is refused before its pixels are allocated). The caller decodes, and closes the image.

    >>> open_image(b"GIF89a")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scoring.errors.ImageError: not a readable image (JPEG, PNG, WebP or HEIC expected; ...
    """
    if not data:
        raise ImageError("the image is empty (0 bytes)", code="empty_image")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            img = Image.open(io.BytesIO(data))
        except UnidentifiedImageError:
            raise ImageError(
                "not a readable image (JPEG, PNG, WebP or HEIC expected; "
                f"got {len(data)} bytes starting {data[:8]!r})",
                code="not_an_image",
            ) from None
        except Image.DecompressionBombError as exc:
            raise ImageError(str(exc), code="too_many_pixels") from None
        except (OSError, SyntaxError, ValueError) as exc:
            # A file cut inside its header (a JPEG's first segments) fails while Pillow
            # reads the header, before any decode: the same error as a cut in the pixels.
            raise ImageError(
                f"the image could not be read (truncated or corrupt header): {exc}",
                code="truncated_image",
            ) from None
    width, height = img.size
    if width * height > max_pixels:
        img.close()
        raise ImageError(
            f"the photo has {width} x {height} = {width * height / 1e6:.1f} MP; at most "
            f"{max_pixels / 1e6:g} MP ({max_pixels:,} pixels) are accepted",
            code="too_many_pixels",
        )
    if width == 0 or height == 0:
        img.close()
        raise ImageError(f"the image has no pixels ({width}x{height})", code="empty_image")
    return img


def decode_image(
    data: bytes, *, max_pixels: int = MAX_PIXELS, long_side: int = DECODE_LONG_SIDE
) -> Photo:
    """Decode JPEG/PNG/WebP/... bytes; raise :class:`ImageError` when they are not a photo.

    >>> buf = io.BytesIO(); Image.new("RGB", (8, 6), "red").save(buf, "PNG")
    >>> photo = decode_image(buf.getvalue())
    >>> photo.pixels.shape, photo.width, photo.height
    ((6, 8, 3), 8, 6)
    >>> decode_image(b"")
    Traceback (most recent call last):
    ...
    scoring.errors.ImageError: the image is empty (0 bytes)
    """
    with warnings.catch_warnings():
        # We check the size ourselves, against our own limit (open_image).
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        img = open_image(data, max_pixels=max_pixels)
        width, height = img.size
        try:
            # Reading EXIF may walk the whole file (a PNG keeps it anywhere), so a broken
            # chunk after the header already fails here.
            orientation = img.getexif().get(ORIENTATION_TAG, 1)
            if img.format == "JPEG":
                # libjpeg picks the smallest 1/k scale at least as large as the requested size.
                shrink = max(1.0, max(width, height) / long_side)
                img.draft("RGB", (int(width / shrink), int(height / shrink)))
            img.load()
            img = img.convert("RGB")
        except (OSError, SyntaxError, ValueError) as exc:
            raise ImageError(
                f"the image could not be decoded (truncated or corrupt): {exc}",
                code="truncated_image",
            ) from None
    for step in _TRANSPOSE.get(orientation, ()):
        img = img.transpose(step)
    if orientation in TRANSPOSED_ORIENTATIONS:
        width, height = height, width
    return Photo(pixels=np.asarray(img), width=width, height=height)


#: A photo whose 99th percentile of chroma (a pixel's max channel minus its min) is at most
#: this has no colour. Colour photos measured 27 and up (real-photos-hk and riichi-small,
#: generated scenes); the grey ones (32 of real-photos-hk val, 127 of its train split) 0,
#: and a grey JPEG saved as RGB at quality 40 0 too.
MONOCHROME_CHROMA = 12


def is_monochrome(pixels: np.ndarray) -> bool:
    """Whether an RGB photo has no colour (a black-and-white photo or filter): its red fives
    then look like plain fives.

    >>> grey = np.full((40, 40, 3), 128, np.uint8)
    >>> is_monochrome(grey)
    True
    >>> grey[:20, :, 0] = 200  # a red half
    >>> is_monochrome(grey)
    False
    """
    sample = pixels[::4, ::4].reshape(-1, pixels.shape[-1]).astype(np.int16)
    if sample.shape[-1] < 3 or len(sample) == 0:
        return True
    chroma = sample[:, :3].max(axis=1) - sample[:, :3].min(axis=1)
    return bool(np.percentile(chroma, 99) <= MONOCHROME_CHROMA)
