"""Photo decoding: EXIF orientation, reduced JPEG decode, and clear errors for bad bytes."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from scoring.errors import ImageError
from vision.api import recognize
from vision.image_io import decode_image


def jpeg(width: int, height: int, *, orientation: int | None = None) -> bytes:
    img = Image.new("RGB", (width, height), "white")
    img.paste((255, 0, 0), (0, 0, width // 4, height // 4))  # a red top-left corner
    exif = Image.Exif()
    if orientation is not None:
        exif[0x0112] = orientation
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=90, exif=exif.tobytes())
    return buf.getvalue()


def png_header(width: int, height: int) -> bytes:
    """A PNG that claims a size but holds no pixels: enough for the header check."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b""))
        + chunk(b"IEND", b"")
    )


def png_broken_chunk() -> bytes:
    """A 64x48 PNG whose second IDAT chunk has a broken type: its header opens, reading
    further (EXIF, pixels) fails."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    pixels = zlib.compress(b"".join(b"\x00" + b"\xff" * 64 * 3 for _ in range(48)))
    ihdr = struct.pack(">IIBBBBB", 64, 48, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", pixels[:20])
        + chunk(b"I\x99AT", pixels[20:])
        + chunk(b"IEND", b"")
    )


@pytest.mark.parametrize(
    ("data", "code"),
    [
        pytest.param(b"", "empty_image", id="empty"),
        pytest.param(png_broken_chunk(), "truncated_image", id="png_broken_chunk"),
        pytest.param(b"GIF87a-no-really-this-is-text", "not_an_image", id="garbage"),
        pytest.param(jpeg(640, 480)[:3000], "truncated_image", id="truncated_jpeg"),
        pytest.param(jpeg(640, 480, orientation=1)[:100], "truncated_image", id="cut_in_header"),
        pytest.param(png_header(10_000, 6_000), "too_many_pixels", id="over_50mp"),
    ],
)
def test_bad_images_are_clear_errors(data: bytes, code: str) -> None:
    with pytest.raises(ImageError) as err:
        decode_image(data)
    assert err.value.code == code
    assert err.value.message


def test_recognize_refuses_unreadable_bytes_before_touching_the_model() -> None:
    with pytest.raises(ImageError) as err:
        recognize(b"\x00\x01 not a photo")
    assert err.value.code == "not_an_image"


def test_exif_rotation_gives_the_upright_photo() -> None:
    photo = decode_image(jpeg(400, 300, orientation=6))  # stored landscape, shown portrait
    assert (photo.width, photo.height) == (300, 400)
    assert photo.pixels.shape == (400, 300, 3)
    # Orientation 6 = rotate 90 degrees clockwise to view: the red corner goes top-right.
    assert photo.pixels[5, -5, 0] > 200 and photo.pixels[5, -5, 1] < 80
    assert photo.pixels[5, 5].min() > 200


def test_large_jpeg_is_decoded_reduced_and_keeps_its_true_size() -> None:
    photo = decode_image(jpeg(4000, 3000), long_side=1600)
    assert (photo.width, photo.height) == (4000, 3000)
    assert photo.pixels.shape == (1500, 2000, 3)  # libjpeg's 1/2 scale
    assert photo.scale == pytest.approx(2.0)
    assert isinstance(photo.pixels, np.ndarray) and photo.pixels.dtype == np.uint8
