"""What a kept picture is (docs/media.md): the bytes storycore keeps of a fetched picture.

Every picture is read as its bytes decode (JPEG, PNG, GIF or WebP, nothing else), bounded
(16 MiB, 40 megapixels, 2048 pixels on its long side), and encoded again as WebP with no byte
of the input and no metadata left; each file is named by the SHA-256 of its bytes. Anything
else is refused with ``PictureRefused`` and a reason a writer can read."""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageCms

from storycore.errors import InvalidParameter, PictureRefused
from storycore.media.pictures import (
    LONG_SIDE,
    MAX_ANIMATION_PIXELS,
    MAX_BYTES,
    MAX_FRAMES,
    MAX_PIXELS,
    PictureFile,
    keep_picture,
)

from ._pictures import (
    PAGE,
    PAYLOAD,
    drawn,
    encoded,
    gif_growing_to,
    gif_that_is_javascript,
    png_claiming,
    webp_chunks,
)

ROOT = Path(__file__).resolve().parents[2]
METADATA_CHUNKS = {b"EXIF", b"ICCP", b"XMP "}


def _opened(file: PictureFile) -> Image.Image:
    picture = Image.open(io.BytesIO(file.content), formats=["WEBP"])
    picture.load()
    return picture


def _pixel(picture: Image.Image, at: tuple[int, int]) -> tuple[int, ...]:
    value = picture.getpixel(at)
    assert isinstance(value, tuple)
    return value


def _frames(file: PictureFile) -> int:
    return int(getattr(_opened(file), "n_frames", 1))


# -- what is kept ----------------------------------------------------------------------------


def test_a_picture_is_kept_as_webp() -> None:
    kept = keep_picture(encoded(drawn(64, 48), "JPEG"))
    assert (kept.original.media_type, kept.original.extension) == ("image/webp", "webp")
    assert _opened(kept.original).format == "WEBP"


def test_each_file_is_named_by_the_sha256_of_its_bytes() -> None:
    kept = keep_picture(encoded(drawn(1200, 800), "PNG"))
    for file in kept.files:
        digest = hashlib.sha256(file.content).hexdigest()
        assert (file.sha256, file.name) == (digest, f"{digest}.webp")


def test_a_file_knows_its_width_height_and_size() -> None:
    kept = keep_picture(encoded(drawn(64, 48), "PNG"))
    assert (kept.original.width, kept.original.height) == (64, 48)
    assert _opened(kept.original).size == (64, 48)
    assert kept.original.size == len(kept.original.content)


@pytest.mark.parametrize(
    ("format", "mode"), [("JPEG", "RGB"), ("PNG", "RGBA"), ("GIF", "P"), ("WEBP", "RGB")]
)
def test_jpeg_png_gif_and_webp_are_kept(format: str, mode: str) -> None:
    kept = keep_picture(encoded(drawn(40, 30, mode), format))
    assert _opened(kept.original).size == (40, 30)


def test_a_photograph_is_kept_lossy() -> None:
    kept = keep_picture(encoded(Image.effect_noise((64, 48), 40).convert("RGB"), "JPEG"))
    assert b"VP8 " in webp_chunks(kept.original.content)


def test_a_drawing_of_few_colours_is_kept_without_loss_when_that_is_smaller() -> None:
    drawing = drawn(400, 300, "P")
    kept = keep_picture(encoded(drawing, "PNG"))
    assert b"VP8L" in webp_chunks(kept.original.content)
    assert _opened(kept.original).convert("RGB").tobytes() == drawing.convert("RGB").tobytes()


def test_the_same_picture_is_kept_as_the_same_bytes() -> None:
    picture = encoded(drawn(300, 200), "JPEG")
    assert keep_picture(picture) == keep_picture(picture)


# -- size ------------------------------------------------------------------------------------


def test_a_large_picture_is_kept_at_2048_pixels_on_its_long_side() -> None:
    kept = keep_picture(encoded(drawn(4000, 3000), "JPEG"))
    assert (kept.original.width, kept.original.height) == (LONG_SIDE, 1536)
    assert _opened(kept.original).size == (2048, 1536)


def test_a_jpeg_twice_as_large_is_kept_at_2048_and_upright() -> None:
    # decoded at half its size already (libjpeg scales as it decodes), then to 2048
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation: rotate 90 degrees clockwise
    kept = keep_picture(encoded(drawn(7000, 5000), "JPEG", exif=exif))
    upright = _opened(kept.original)
    assert (kept.original.width, kept.original.height) == (1463, 2048)
    assert _pixel(upright, (1300, 200))[0] > 150  # the red quarter, top right once upright


def test_a_tall_picture_is_bounded_by_its_height() -> None:
    kept = keep_picture(encoded(drawn(1000, 4000), "PNG"))
    assert (kept.original.width, kept.original.height) == (512, 2048)


def test_a_large_picture_gets_every_width_of_the_ladder() -> None:
    kept = keep_picture(encoded(drawn(4000, 3000), "JPEG"))
    assert [(file.width, file.height) for file in kept.widths] == [
        (320, 240),
        (640, 480),
        (1024, 768),
        (1536, 1152),
    ]
    assert [_opened(file).size for file in kept.widths] == [
        (file.width, file.height) for file in kept.widths
    ]


def test_only_widths_smaller_than_the_original_are_made() -> None:
    kept = keep_picture(encoded(drawn(700, 500), "PNG"))
    assert [file.width for file in kept.widths] == [320, 640]


def test_a_narrower_width_is_kept_only_when_its_file_is_smaller() -> None:
    # a one-pixel checkerboard is a few bytes without loss, and grey moire once scaled
    checkerboard = Image.new("P", (700, 500))
    checkerboard.putpalette([255, 255, 255, 0, 0, 0])
    checkerboard.putdata([(x + y) % 2 for y in range(500) for x in range(700)])
    kept = keep_picture(encoded(checkerboard, "PNG"))
    assert kept.widths == ()


def test_each_narrower_width_is_a_smaller_file() -> None:
    kept = keep_picture(encoded(Image.effect_noise((2000, 1500), 50).convert("RGB"), "JPEG"))
    sizes = [file.size for file in kept.files]
    assert sizes == sorted(sizes)
    assert len(kept.widths) == 4


def test_a_small_picture_has_no_other_width() -> None:
    assert keep_picture(encoded(drawn(320, 200), "PNG")).widths == ()


def test_files_run_from_the_narrowest_to_the_original() -> None:
    kept = keep_picture(encoded(drawn(1100, 400), "PNG"))
    assert [file.width for file in kept.files] == [320, 640, 1024, 1100]
    assert kept.files[-1] == kept.original


# -- what is dropped -------------------------------------------------------------------------


def _gps_exif() -> Image.Exif:
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x8825] = {1: "N", 2: (48.0, 51.0, 29.0), 3: "E", 4: (2.0, 17.0, 40.0)}  # GPSInfo
    return exif


def test_a_jpeg_keeps_no_exif_and_no_location() -> None:
    picture = encoded(drawn(64, 48), "JPEG", exif=_gps_exif(), comment=PAYLOAD)
    assert Image.open(io.BytesIO(picture)).getexif().get_ifd(0x8825)  # the input has a place
    for file in keep_picture(picture).files:
        assert not METADATA_CHUNKS & set(webp_chunks(file.content))
        assert dict(_opened(file).getexif()) == {}
        assert b"PhoneMaker" not in file.content
        assert PAYLOAD not in file.content


def test_a_png_keeps_none_of_its_text() -> None:
    from PIL.PngImagePlugin import PngInfo

    text = PngInfo()
    text.add_text("Comment", PAYLOAD.decode())
    text.add_itxt("XML:com.adobe.xmp", PAYLOAD.decode())
    for file in keep_picture(encoded(drawn(64, 48), "PNG", pnginfo=text)).files:
        assert PAYLOAD not in file.content
        assert not METADATA_CHUNKS & set(webp_chunks(file.content))


def test_a_webp_keeps_none_of_its_exif_or_xmp() -> None:
    picture = encoded(drawn(64, 48), "WEBP", exif=_gps_exif(), xmp=PAYLOAD)
    assert b"EXIF" in webp_chunks(picture)
    for file in keep_picture(picture).files:
        assert not METADATA_CHUNKS & set(webp_chunks(file.content))
        assert PAYLOAD not in file.content


def test_an_icc_profile_is_applied_and_dropped() -> None:
    profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    kept = keep_picture(encoded(drawn(64, 48), "JPEG", icc_profile=profile))
    assert "icc_profile" not in _opened(kept.original).info
    assert b"ICCP" not in webp_chunks(kept.original.content)


def test_the_exif_orientation_is_applied_before_the_exif_is_dropped() -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation: the camera was turned; rotate 90 degrees clockwise
    kept = keep_picture(encoded(drawn(80, 40), "JPEG", exif=exif, quality=95))
    upright = _opened(kept.original).convert("RGB")
    assert upright.size == (40, 80)
    # the red top-left quarter of what the sensor saw is the top-right quarter upright
    red, _green, blue = _pixel(upright, (30, 10))
    assert red > 150
    assert blue < 100


# -- colours and transparency ----------------------------------------------------------------


def test_a_cmyk_jpeg_is_kept_in_rgb() -> None:
    kept = keep_picture(encoded(drawn(64, 48, "CMYK"), "JPEG"))
    picture = _opened(kept.original)
    assert picture.mode == "RGB"
    red, green, blue = _pixel(picture, (50, 40))
    assert blue > red
    assert blue > green


def test_a_paletted_png_keeps_its_transparency() -> None:
    picture = drawn(64, 48, "P")
    transparent = picture.getpixel((60, 40))
    kept = keep_picture(encoded(picture, "PNG", transparency=transparent))
    opened = _opened(kept.original).convert("RGBA")
    assert _pixel(opened, (60, 40))[3] == 0
    assert _pixel(opened, (5, 5))[3] == 255


def test_a_16_bit_greyscale_png_keeps_its_greys() -> None:
    gradient = Image.linear_gradient("L").resize((64, 48)).convert("I")
    picture = gradient.point(lambda value: value * 256).convert("I;16")
    kept = keep_picture(encoded(picture, "PNG"))
    greys = _opened(kept.original).convert("L").tobytes()
    assert min(greys) < 20
    assert max(greys) > 235


# -- animations ------------------------------------------------------------------------------


def _animation(frames: int, size: tuple[int, int] = (32, 24), format: str = "GIF") -> bytes:
    pictures = [Image.new("RGB", size, (frame * 40 % 256, 80, 160)) for frame in range(frames)]
    return encoded(
        pictures[0], format, save_all=True, append_images=pictures[1:], duration=120, loop=0
    )


def test_an_animated_gif_stays_animated() -> None:
    kept = keep_picture(_animation(5))
    assert kept.animated
    assert (_frames(kept.original), _opened(kept.original).info["duration"]) == (5, 120)


def test_an_animation_is_kept_at_its_own_width_alone() -> None:
    kept = keep_picture(_animation(3, size=(700, 400)))
    assert kept.animated
    assert kept.widths == ()


def test_an_animated_webp_stays_animated() -> None:
    kept = keep_picture(_animation(3, format="WEBP"))
    assert (_frames(kept.original), kept.animated) == (3, True)


def test_an_animation_of_too_many_frames_keeps_its_first() -> None:
    kept = keep_picture(_animation(MAX_FRAMES + 1, size=(4, 4)))
    assert (_frames(kept.original), kept.animated) == (1, False)


def test_an_animation_of_too_many_pixels_keeps_its_first_frame() -> None:
    side = 1000
    frames = MAX_ANIMATION_PIXELS // (side * side) + 1
    kept = keep_picture(_animation(frames, size=(side, side)))
    assert (_frames(kept.original), kept.animated) == (1, False)


def test_a_jpeg_holding_more_pictures_keeps_its_first() -> None:
    first, second = Image.new("RGB", (64, 48), "red"), Image.new("RGB", (64, 48), "blue")
    kept = keep_picture(encoded(first, "MPO", save_all=True, append_images=[second]))
    assert (_frames(kept.original), kept.animated) == (1, False)
    assert _pixel(_opened(kept.original), (10, 10))[0] > 200


def test_a_still_picture_is_not_animated() -> None:
    assert not keep_picture(encoded(drawn(64, 48), "PNG")).animated


# -- refusals --------------------------------------------------------------------------------


def _refusal(content: bytes) -> str:
    with pytest.raises(PictureRefused) as refused:
        keep_picture(content)
    return refused.value.message


def test_a_refusal_is_an_invalid_parameter() -> None:
    assert issubclass(PictureRefused, InvalidParameter)
    assert (PictureRefused("no").status, PictureRefused("no").type) == (400, "invalid_parameter")


def test_more_than_16_mib_is_refused() -> None:
    assert _refusal(b"\0" * (17 * 2**20)) == "a picture of 16 MiB at most: this is 17.0 MiB"


def test_16_mib_is_not_refused_for_its_size() -> None:
    padded = encoded(drawn(8, 8), "PNG").ljust(MAX_BYTES, b"\0")
    assert keep_picture(padded).original.width == 8


def test_an_empty_file_is_refused() -> None:
    assert _refusal(b"") == "not a picture: an empty file"


def test_an_svg_is_refused() -> None:
    svg = b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>'
    assert _refusal(svg + PAYLOAD + b"</script></svg>") == "not a picture: an SVG"


def test_html_sent_as_a_png_is_refused() -> None:
    assert _refusal(PAGE) == "not a picture: an HTML page"


def test_a_script_is_refused() -> None:
    assert _refusal(PAYLOAD + b";") == (
        "not a picture: storycore keeps JPEG, PNG, GIF and WebP pictures"
    )


@pytest.mark.parametrize("format", ["BMP", "TIFF", "ICO", "PPM"])
def test_a_picture_in_another_format_is_refused(format: str) -> None:
    assert _refusal(encoded(drawn(16, 16), format)) == (
        "not a picture: storycore keeps JPEG, PNG, GIF and WebP pictures"
    )


def test_a_gif_that_is_also_javascript_keeps_none_of_the_script() -> None:
    polyglot = gif_that_is_javascript()
    assert Image.open(io.BytesIO(polyglot)).format == "GIF"
    for file in keep_picture(polyglot).files:
        assert PAYLOAD not in file.content
        assert file.content[:4] == b"RIFF"


def test_a_png_with_a_page_after_its_end_keeps_none_of_the_page() -> None:
    for file in keep_picture(encoded(drawn(64, 48), "PNG") + PAGE).files:
        assert PAYLOAD not in file.content
        assert b"<html" not in file.content


def test_more_than_40_megapixels_is_refused_from_the_header() -> None:
    assert _refusal(png_claiming(8000, 6000)) == "a picture of 40 megapixels at most: 8000 x 6000"


def test_40_megapixels_is_not_refused_for_its_size() -> None:
    assert MAX_PIXELS == 8000 * 5000
    # the header is believed, the rows (20 MB of zeros) are too few for it
    assert _refusal(png_claiming(8000, 5000)) == "a damaged or truncated picture"


def test_a_gif_whose_later_frame_is_over_40_megapixels_is_refused() -> None:
    assert _refusal(gif_growing_to(9000, 6000)) == (
        "a picture of 40 megapixels at most: 9000 x 6000"
    )


def test_a_decompression_bomb_is_refused() -> None:
    bomb = png_claiming(100_000, 100_000)
    assert len(bomb) < 64_000
    # Pillow refuses it first, from the same header, knowing only that it is over its bound
    assert _refusal(bomb) == "a picture of 40 megapixels at most: this one is over 89 megapixels"


def test_a_picture_pillow_would_warn_about_is_refused() -> None:
    # over Pillow's own warning bound (89 million pixels), under its error bound: a warning,
    # which this suite's filter makes an error and the default filter only shows
    assert _refusal(png_claiming(10_000, 10_000)).startswith("a picture of 40 megapixels at most: ")


def test_refusing_a_decompression_bomb_grows_memory_by_less_than_100_mib() -> None:
    code = (
        "import resource, sys\n"
        "from storycore.errors import PictureRefused\n"
        "from storycore.media.pictures import keep_picture\n"
        "from tests.media._pictures import png_claiming\n"
        "bomb = png_claiming(100_000, 100_000)\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "try:\n"
        "    keep_picture(bomb)\n"
        "except PictureRefused:\n"
        "    pass\n"
        "else:\n"
        "    sys.exit('kept')\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    grown_kib = int(run.stdout)  # ru_maxrss is in KiB on Linux
    assert grown_kib < 100 * 1024


def test_a_truncated_picture_is_refused() -> None:
    whole = encoded(drawn(200, 150), "PNG")
    assert _refusal(whole[: len(whole) // 2]) == "a damaged or truncated picture"


def test_a_truncated_jpeg_is_refused() -> None:
    whole = encoded(Image.effect_noise((200, 150), 60).convert("RGB"), "JPEG")
    assert _refusal(whole[: len(whole) // 2]) == "a damaged or truncated picture"
