"""Upload checks: formats, sizes, truncation, EXIF orientation; nothing decoded too early."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from scoring.errors import ImageError
from tests.webapp.conftest import image_bytes
from webapp.images import check_image

MP = 1_000_000


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_accepted_formats_pass_unchanged(fmt: str) -> None:
    data = image_bytes(fmt, (320, 200))
    checked = check_image(data, max_pixels=40 * MP)
    assert (checked.format, checked.width, checked.height) == (fmt, 320, 200)
    assert checked.data is data
    assert checked.orientation == 1


def _portrait_jpeg() -> bytes:
    img = Image.linear_gradient("L").resize((300, 100)).convert("RGB")
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90 CW to view": the camera held in portrait
    buf = io.BytesIO()
    img.save(buf, "JPEG", exif=exif)
    return buf.getvalue()


def test_exif_orientation_gives_the_upright_size() -> None:
    data = _portrait_jpeg()
    checked = check_image(data, max_pixels=40 * MP)
    assert (checked.width, checked.height, checked.orientation) == (100, 300, 6)
    assert checked.data is data  # the detector's decoder applies the same orientation


def test_the_detector_sees_the_photo_upright() -> None:
    from vision.image_io import decode_image

    checked = check_image(_portrait_jpeg(), max_pixels=40 * MP)
    photo = decode_image(checked.data)
    assert (photo.width, photo.height) == (checked.width, checked.height)


def test_heic_is_accepted_and_handed_on_as_upright_jpeg() -> None:
    img = Image.linear_gradient("L").resize((300, 100)).convert("RGB")
    exif = Image.Exif()
    exif[0x0112] = 8
    buf = io.BytesIO()
    img.save(buf, "HEIF", exif=exif.tobytes())
    checked = check_image(buf.getvalue(), max_pixels=40 * MP)
    assert checked.format == "HEIF"
    with Image.open(io.BytesIO(checked.data)) as out:
        assert out.format == "JPEG"
        assert out.size == (100, 300) == (checked.width, checked.height)


def test_pixel_cap_is_checked_from_the_header_only() -> None:
    # A 60 MP PNG of one colour: a few kB on disk, 180 MB if decoded.
    buf = io.BytesIO()
    Image.new("1", (10_000, 6_000)).save(buf, "PNG")
    assert len(buf.getvalue()) < 200_000
    with pytest.raises(ImageError) as info:
        check_image(buf.getvalue(), max_pixels=40 * MP)
    assert info.value.code == "too_many_pixels"
    assert "60.0 MP" in info.value.message


def test_truncated_png_is_refused() -> None:
    data = image_bytes("PNG", (300, 300))
    with pytest.raises(ImageError) as info:
        check_image(data[: len(data) - 200], max_pixels=40 * MP)
    assert info.value.code == "truncated_image"


def test_truncated_jpeg_is_refused() -> None:
    data = image_bytes("JPEG", (1200, 900), quality=95)
    with pytest.raises(ImageError) as info:
        check_image(data[: len(data) * 2 // 3], max_pixels=40 * MP)
    assert info.value.code == "truncated_image"


def test_text_renamed_to_jpg_is_not_an_image() -> None:
    with pytest.raises(ImageError) as info:
        check_image(b"\xff\xd8 but then nothing", max_pixels=MP)
    assert info.value.code == "not_an_image"
