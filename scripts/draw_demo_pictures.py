"""Draw the demo's pictures (storycore/static/demo/): landscapes, link thumbnails, video posters
and avatars, all procedural, since the demo must look like a real site offline.

    pip install --target /tmp/pillow pillow
    PYTHONPATH=/tmp/pillow python scripts/draw_demo_pictures.py
    PYTHONPATH=/tmp/pillow python scripts/draw_demo_pictures.py --widths   # the widths alone

Each landscape and link thumbnail is also written in the smaller ``WIDTHS`` below its own, as
``{name}-{width}w.webp``, so that a page offers a card the width it draws
(docs/api.md#pictures-in-widths).

Pillow is needed to run this script only; storycore serves the files it wrote and never draws.
The drawing is seeded, so running it again gives the same pictures (for one Pillow version).
"""

from __future__ import annotations

import itertools
import math
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

OUT = Path(__file__).resolve().parent.parent / "storycore" / "static" / "demo"
PICTURE = (960, 640)
THUMBNAIL = (480, 320)
POSTER = (640, 360)
AVATAR = (96, 96)
QUALITY = 72
#: The smaller widths written of each landscape and link thumbnail (below its own width).
WIDTHS = (160, 320, 480, 640, 800)

Color = tuple[int, int, int]
Stops = Sequence[tuple[float, Color]]


def _seeded(seed: int | str) -> random.Random:
    """The same drawing every run."""
    return random.Random(seed)  # noqa: S311 - pictures, not secrets


def _mix(a: Color, b: Color, t: float) -> Color:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _at(stops: Stops, t: float) -> Color:
    for (p0, c0), (p1, c1) in itertools.pairwise(stops):
        if t <= p1:
            return _mix(c0, c1, 0 if p1 == p0 else (t - p0) / (p1 - p0))
    return stops[-1][1]


def gradient(
    size: tuple[int, int], stops: Stops, top: int = 0, bottom: int | None = None
) -> Image.Image:
    """A vertical gradient through ``stops`` (positions 0 to 1) between rows top and bottom."""
    width, height = size
    bottom = height if bottom is None else bottom
    image = Image.new("RGB", size, stops[-1][1])
    draw = ImageDraw.Draw(image)
    for y in range(height):
        t = min(max((y - top) / max(bottom - top, 1), 0.0), 1.0)
        draw.line([(0, y), (width, y)], fill=_at(stops, t))
    return image


def paste(
    image: Image.Image,
    color: Color,
    shape: Callable[[ImageDraw.ImageDraw], None],
    *,
    alpha: int = 255,
    blur: float = 0,
) -> None:
    """Paint ``color`` where ``shape`` draws on a mask, softened by ``blur``."""
    mask = Image.new("L", image.size, 0)
    shape(ImageDraw.Draw(mask))
    if blur:
        mask = mask.filter(ImageFilter.GaussianBlur(blur))
    if alpha != 255:
        mask = mask.point(lambda v: v * alpha // 255)
    image.paste(Image.new("RGB", image.size, color), (0, 0), mask)


def glow(
    image: Image.Image,
    center: tuple[float, float],
    radius: float,
    color: Color,
    *,
    alpha: int = 255,
    halo: float = 3.0,
) -> None:
    """A disc with a soft halo: a sun or a moon."""
    x, y = center
    paste(
        image,
        color,
        lambda d: d.ellipse(
            (x - radius * halo, y - radius * halo, x + radius * halo, y + radius * halo), fill=90
        ),
        alpha=alpha,
        blur=radius * 1.5,
    )
    paste(
        image,
        color,
        lambda d: d.ellipse((x - radius, y - radius, x + radius, y + radius), fill=255),
        alpha=alpha,
        blur=1,
    )


def ridge(
    rng: random.Random, width: int, base: float, rough: float, steps: int = 7
) -> list[tuple[float, float]]:
    """A mountain ridge line by midpoint displacement."""
    points = [base + rng.uniform(-rough, rough), base + rng.uniform(-rough, rough)]
    spread = rough
    for _ in range(steps):
        refined = []
        for a, b in itertools.pairwise(points):
            refined += [a, (a + b) / 2 + rng.uniform(-spread, spread)]
        points = [*refined, points[-1]]
        spread *= 0.55
    step = width / (len(points) - 1)
    return [(i * step, y) for i, y in enumerate(points)]


def hills(
    width: int, base: float, waves: Sequence[tuple[float, float, float]]
) -> list[tuple[float, float]]:
    """A smooth hill line: ``base`` plus sines of (amplitude, wavelength, phase)."""
    return [
        (x, base + sum(a * math.sin(x / w * 2 * math.pi + p) for a, w, p in waves))
        for x in range(0, width + 8, 8)
    ]


def fill_below(
    image: Image.Image,
    line: list[tuple[float, float]],
    color: Color,
    *,
    alpha: int = 255,
    blur: float = 0,
) -> None:
    width, height = image.size
    polygon = [*line, (width, height), (0, height)]
    paste(image, color, lambda d: d.polygon(polygon, fill=255), alpha=alpha, blur=blur)


def mist(
    image: Image.Image,
    y: float,
    thickness: float,
    *,
    alpha: int = 150,
    color: Color = (235, 238, 240),
) -> None:
    width = image.size[0]
    paste(
        image,
        color,
        lambda d: d.rectangle((-50, y - thickness / 2, width + 50, y + thickness / 2), fill=255),
        alpha=alpha,
        blur=thickness / 2,
    )


def reflect(image: Image.Image, horizon: int, tint: Color, strength: float = 0.45) -> None:
    """Water below ``horizon``: the scene above mirrored, darkened and rippled."""
    width, height = image.size
    above = image.crop((0, max(0, 2 * horizon - height), width, horizon)).transpose(
        Image.Transpose.FLIP_TOP_BOTTOM
    )
    above = above.resize((width, height - horizon)).filter(ImageFilter.GaussianBlur(2))
    water = Image.blend(above, Image.new("RGB", above.size, tint), strength)
    draw = ImageDraw.Draw(water)
    rng = _seeded(horizon)
    for y in range(2, water.size[1], 5):
        for _ in range(3):
            x = rng.uniform(-100, width)
            length = rng.uniform(40, 220)
            draw.line([(x, y), (x + length, y)], fill=_mix(tint, (255, 255, 255), 0.18), width=1)
    image.paste(water, (0, horizon))


def stars(image: Image.Image, rng: random.Random, count: int, bottom: float) -> None:
    draw = ImageDraw.Draw(image)
    width = image.size[0]
    for _ in range(count):
        x, y = rng.uniform(0, width), rng.uniform(0, bottom) ** 1.0
        level = rng.randint(150, 255)
        r = rng.choice((0.6, 0.8, 1.2))
        draw.ellipse((x - r, y - r, x + r, y + r), fill=(level, level, min(255, level + 20)))


def boat(draw: ImageDraw.ImageDraw, x: float, y: float, scale: float, color: Color) -> None:
    hull = [
        (x - 40 * scale, y),
        (x + 40 * scale, y),
        (x + 28 * scale, y + 12 * scale),
        (x - 30 * scale, y + 12 * scale),
    ]
    draw.polygon(hull, fill=color)
    draw.line([(x, y), (x, y - 70 * scale)], fill=color, width=max(1, round(2 * scale)))
    draw.polygon(
        [
            (x + 3 * scale, y - 66 * scale),
            (x + 3 * scale, y - 6 * scale),
            (x + 34 * scale, y - 8 * scale),
        ],
        fill=color,
    )


# -- the places ----------------------------------------------------------------------------


def porto() -> Image.Image:
    """Rabelo boats in the harbour fog under the bridge's arch."""
    w, _h = PICTURE
    image = gradient(PICTURE, [(0, (176, 190, 197)), (0.6, (214, 217, 212)), (1, (226, 224, 214))])
    glow(image, (700, 170), 38, (250, 244, 225), alpha=200)
    fill_below(image, hills(w, 330, [(14, 500, 0.3), (8, 170, 1.0)]), (150, 160, 165))
    # the bridge: an arch and its deck
    paste(
        image, (96, 104, 110), lambda d: d.arc((180, 180, 780, 620), 200, 340, fill=255, width=10)
    )
    paste(image, (96, 104, 110), lambda d: d.rectangle((140, 176, 820, 186), fill=255))
    for x in (250, 330, 630, 710):  # the pillars from the deck down to the arch
        paste(image, (96, 104, 110), lambda d, x=x: d.rectangle((x, 186, x + 6, 300), fill=255))
    mist(image, 300, 90, alpha=170)
    horizon = 395
    reflect(image, horizon, (120, 138, 146), 0.55)
    draw = ImageDraw.Draw(image)
    for x, y, s, c in (
        (180, 420, 1.0, (58, 52, 48)),
        (420, 440, 1.3, (44, 40, 38)),
        (690, 415, 0.8, (70, 66, 62)),
        (840, 470, 1.6, (36, 33, 31)),
    ):
        boat(draw, x, y, s, c)
    mist(image, 450, 60, alpha=90)
    return image


def kyoto() -> Image.Image:
    """Blue ridges, a red sun and a pagoda."""
    w, _h = PICTURE
    rng = _seeded("kyoto")
    image = gradient(PICTURE, [(0, (244, 222, 205)), (0.55, (238, 200, 190)), (1, (226, 186, 180))])
    glow(image, (300, 230), 58, (214, 72, 58), halo=1.6)
    for i, base in enumerate((300, 360, 420, 490, 560)):
        color = _mix((120, 132, 170), (38, 44, 70), i / 4)
        fill_below(image, ridge(rng, w, base, 60 - i * 6), color)
        mist(image, base + 40, 50, alpha=60, color=(240, 214, 206))
    # a pagoda on the nearest ridge
    draw = ImageDraw.Draw(image)
    x, y, dark = 720, 560, (28, 30, 48)
    for level in range(5):
        half = 62 - level * 10
        top = y - level * 34
        draw.polygon(
            [
                (x - half, top),
                (x + half, top),
                (x + half - 16, top - 10),
                (x - half + 16, top - 10),
            ],
            fill=dark,
        )
        draw.rectangle((x - half + 22, top - 34, x + half - 22, top - 10), fill=dark)
    draw.line([(x, y - 170), (x, y - 215)], fill=dark, width=4)
    return image


def oaxaca() -> Image.Image:
    """Desert hills at dusk with cacti."""
    w, _h = PICTURE
    image = gradient(
        PICTURE,
        [(0, (62, 70, 128)), (0.45, (226, 126, 104)), (0.7, (250, 196, 120)), (1, (250, 214, 150))],
    )
    glow(image, (620, 380), 44, (255, 236, 190), halo=2.5)
    fill_below(image, hills(w, 400, [(30, 700, 0.4), (16, 260, 2.0)]), (150, 84, 88))
    fill_below(image, hills(w, 470, [(24, 520, 1.5), (10, 190, 0.2)]), (110, 58, 70))
    fill_below(image, hills(w, 560, [(18, 800, 2.6), (6, 140, 0.7)]), (66, 36, 50))
    draw = ImageDraw.Draw(image)
    dark = (40, 22, 34)
    for x, base, tall in ((160, 575, 150), (300, 570, 90), (800, 580, 180)):
        draw.rounded_rectangle((x - 12, base - tall, x + 12, base + 20), 12, fill=dark)
        draw.rounded_rectangle(
            (x - 46, base - tall * 0.55, x - 30, base - tall * 0.2), 8, fill=dark
        )
        draw.rectangle((x - 46, base - tall * 0.3, x, base - tall * 0.2), fill=dark)
        draw.rounded_rectangle(
            (x + 30, base - tall * 0.75, x + 46, base - tall * 0.35), 8, fill=dark
        )
        draw.rectangle((x, base - tall * 0.45, x + 46, base - tall * 0.35), fill=dark)
    return image


def tromso() -> Image.Image:
    """Northern lights over a fjord with snowy mountains."""
    w, _h = PICTURE
    rng = _seeded("tromso")
    image = gradient(PICTURE, [(0, (8, 14, 38)), (0.6, (18, 44, 72)), (1, (24, 60, 80))])
    stars(image, rng, 160, 360)
    for i, (color, y0) in enumerate(
        (((80, 240, 170), 170), ((60, 200, 190), 220), ((150, 110, 220), 120))
    ):
        line = [
            (x, y0 + 60 * math.sin(x / 260 + i * 1.3) + 25 * math.sin(x / 90 + i))
            for x in range(-20, w + 40, 20)
        ]
        paste(
            image,
            color,
            lambda d, points=line: d.line(points, fill=255, width=46),
            alpha=150 - i * 30,
            blur=22,
        )
    fill_below(image, ridge(rng, w, 300, 80), (150, 168, 190))
    mist(image, 360, 50, alpha=60, color=(60, 90, 110))
    fill_below(image, ridge(rng, w, 380, 40), (26, 36, 54))
    reflect(image, 420, (16, 34, 52), 0.5)
    return image


def marrakesh() -> Image.Image:
    """Snow on the Atlas behind palms and an ochre wall."""
    w, _h = PICTURE
    rng = _seeded("marrakesh")
    image = gradient(PICTURE, [(0, (120, 170, 214)), (0.6, (214, 220, 222)), (1, (240, 214, 176))])
    atlas = ridge(rng, w, 300, 70)
    fill_below(image, atlas, (150, 160, 186))
    paste(
        image,
        (244, 246, 250),
        lambda d: d.polygon(
            [*atlas, *[(x, y + 26 + 20 * math.sin(x / 40)) for x, y in reversed(atlas)]], fill=255
        ),
        alpha=230,
        blur=2,
    )
    mist(image, 370, 60, alpha=120, color=(236, 222, 200))
    fill_below(image, hills(w, 470, [(6, 300, 0.0)]), (196, 118, 76))
    draw = ImageDraw.Draw(image)
    for x in range(0, w, 60):  # crenellations
        draw.rectangle((x, 446, x + 30, 470), fill=(196, 118, 76))
    fill_below(image, hills(w, 560, [(4, 400, 1.0)]), (170, 96, 62))
    dark = (64, 72, 52)
    for x, top in ((120, 250), (250, 300), (820, 230)):
        draw.line([(x, 560), (x + 14, top)], fill=(92, 70, 50), width=9)
        for angle in range(0, 360, 40):
            a = math.radians(angle)
            end = (x + 14 + 95 * math.cos(a), top + 40 * math.sin(a) + 25)
            draw.line([(x + 14, top), end], fill=dark, width=12)
    return image


def tbilisi() -> Image.Image:
    """The old town at night: lit windows on the hills, a fortress and the moon."""
    w, h = PICTURE
    rng = _seeded("tbilisi")
    image = gradient(PICTURE, [(0, (12, 16, 42)), (0.7, (44, 46, 92)), (1, (70, 58, 96))])
    stars(image, rng, 110, 300)
    glow(image, (780, 130), 30, (246, 240, 214), halo=3.5)
    fill_below(image, hills(w, 330, [(60, 900, 2.2), (20, 300, 0.4)]), (26, 26, 52))
    draw = ImageDraw.Draw(image)
    for x in range(120, 420, 46):  # the fortress wall on the hill
        draw.rectangle((x, 250 + (x - 120) * 0.15, x + 28, 330), fill=(26, 26, 52))
    fill_below(image, hills(w, 440, [(30, 600, 0.8), (12, 160, 2.0)]), (20, 20, 40))
    for _ in range(260):
        x = rng.uniform(0, w)
        y = rng.uniform(400, h)
        color = rng.choice(((255, 214, 130), (255, 190, 110), (250, 232, 180)))
        draw.rectangle((x, y, x + 4, y + 5), fill=color)
    paste(
        image,
        (255, 200, 120),
        lambda d: d.ellipse((-100, 520, w + 100, 760), fill=255),
        alpha=50,
        blur=60,
    )
    return image


def valparaiso() -> Image.Image:
    """Sunset over the bay, with the coloured houses of the hills."""
    _w, h = PICTURE
    rng = _seeded("valparaiso")
    image = gradient(
        PICTURE,
        [
            (0, (74, 80, 150)),
            (0.35, (234, 120, 120)),
            (0.62, (252, 196, 120)),
            (1, (252, 210, 140)),
        ],
        bottom=400,
    )
    glow(image, (730, 360), 50, (255, 240, 200), halo=3.2)
    reflect(image, 400, (90, 80, 130), 0.35)
    end = 560  # where the headland meets the water

    def ground(x: float) -> float:
        return 150 + (x / end) ** 1.6 * 250 + 8 * math.sin(x / 37)

    hill = [(float(x), ground(x)) for x in range(0, end + 1, 8)]
    headland = [*hill, (end + 50, h), (0, h)]
    paste(image, (70, 52, 76), lambda d: d.polygon(headland, fill=255))
    draw = ImageDraw.Draw(image)
    palette = (
        (230, 90, 80),
        (250, 200, 90),
        (90, 170, 200),
        (120, 200, 140),
        (240, 150, 180),
        (250, 250, 240),
    )
    for _ in range(240):
        x = rng.uniform(0, end - 30)
        y = rng.uniform(ground(x) + 8, 620)
        if y > 400 + (x / end) * 30 and x > end - 120:
            continue
        draw.rectangle(
            (x, y, x + rng.uniform(12, 22), y + rng.uniform(10, 16)),
            fill=_mix(rng.choice(palette), (60, 40, 70), 0.25),
        )
    return image


def hanoi() -> Image.Image:
    """Rice terraces in the hills, in the morning mist."""
    w, _h = PICTURE
    image = gradient(PICTURE, [(0, (206, 226, 222)), (0.5, (232, 238, 224)), (1, (214, 228, 196))])
    fill_below(image, hills(w, 210, [(50, 900, 0.4), (20, 330, 1.6)]), (150, 176, 164))
    mist(image, 250, 70, alpha=150)
    for i in range(9):
        base = 290 + i * 42
        line = hills(w, base, [(28 + i * 2, 820, 1.2 + i * 0.25), (10, 260, i * 0.7)])
        green = _mix((150, 196, 110), (60, 120, 60), i / 8)
        fill_below(image, line, green)
        paste(
            image,
            _mix(green, (240, 250, 220), 0.5),
            lambda d, points=line: d.line(points, fill=255, width=3),
            alpha=200,
        )
    mist(image, 330, 60, alpha=70)
    return image


# -- the topics: link thumbnails ------------------------------------------------------------


def travel() -> Image.Image:
    """A road winding through the hills."""
    w, _h = THUMBNAIL
    image = gradient(THUMBNAIL, [(0, (140, 190, 230)), (1, (230, 236, 220))], bottom=180)
    glow(image, (380, 70), 22, (255, 248, 220))
    fill_below(image, hills(w, 170, [(20, 420, 0.5), (8, 130, 1.0)]), (120, 160, 120))
    fill_below(image, hills(w, 210, [(16, 300, 2.0)]), (86, 140, 84))
    paste(
        image,
        (70, 70, 74),
        lambda d: d.polygon([(200, 320), (330, 320), (250, 200), (238, 200)], fill=255),
    )
    paste(image, (240, 230, 180), lambda d: d.line([(265, 320), (244, 200)], fill=255, width=3))
    return image


def science() -> Image.Image:
    """A comet over an observatory's dome."""
    w, _h = THUMBNAIL
    rng = _seeded("science")
    image = gradient(THUMBNAIL, [(0, (10, 14, 40)), (1, (40, 50, 90))])
    stars(image, rng, 90, 250)
    paste(
        image,
        (200, 230, 255),
        lambda d: d.line([(120, 60), (330, 140)], fill=255, width=10),
        alpha=120,
        blur=8,
    )
    glow(image, (330, 140), 5, (240, 250, 255), halo=3)
    fill_below(image, hills(w, 270, [(10, 400, 1.0)]), (20, 22, 36))
    draw = ImageDraw.Draw(image)
    draw.pieslice((80, 200, 180, 300), 180, 360, fill=(200, 204, 214))
    draw.rectangle((80, 250, 180, 290), fill=(170, 174, 186))
    draw.rectangle((124, 204, 136, 250), fill=(60, 64, 80))
    return image


def food() -> Image.Image:
    """A table of bowls, seen from above."""
    rng = _seeded("food")
    image = gradient(THUMBNAIL, [(0, (196, 140, 96)), (1, (166, 110, 74))])
    draw = ImageDraw.Draw(image)
    for x, y, r, color in (
        (120, 110, 80, (240, 190, 70)),
        (320, 90, 60, (200, 70, 60)),
        (360, 240, 70, (110, 160, 80)),
        (170, 250, 50, (240, 230, 210)),
    ):
        draw.ellipse((x - r - 8, y - r - 8, x + r + 8, y + r + 8), fill=(250, 248, 242))
        draw.ellipse((x - r, y - r, x + r, y + r), fill=color)
        for _ in range(8):
            a, d = rng.uniform(0, 6.3), rng.uniform(0, r * 0.7)
            px, py = x + d * math.cos(a), y + d * math.sin(a)
            draw.ellipse((px - 6, py - 6, px + 6, py + 6), fill=_mix(color, (255, 255, 255), 0.35))
    return image


def music(size: tuple[int, int] = THUMBNAIL) -> Image.Image:
    """Stage lights over a crowd."""
    w, h = size
    image = gradient(size, [(0, (30, 10, 50)), (1, (80, 20, 70))])
    for x, color in (
        (w // 6, (255, 90, 160)),
        (w // 2, (120, 160, 255)),
        (w * 5 // 6, (255, 200, 90)),
    ):
        paste(
            image,
            color,
            lambda d, x=x: d.polygon(
                [(x - 8, 0), (x + 8, 0), (x + 90, 260), (x - 90, 260)], fill=255
            ),
            alpha=110,
            blur=10,
        )
    draw = ImageDraw.Draw(image)
    rng = _seeded("music")
    for x in range(-10, w + 20, 22):
        y = 270 + rng.uniform(-12, 8)
        y += h - 320
        draw.ellipse((x, y, x + 24, y + 26), fill=(14, 6, 22))
        draw.rectangle((x - 4, y + 20, x + 28, h), fill=(14, 6, 22))
    return image


def sport() -> Image.Image:
    """The lanes of a running track."""
    _w, _h = THUMBNAIL
    image = Image.new("RGB", THUMBNAIL, (90, 150, 80))
    draw = ImageDraw.Draw(image)
    draw.ellipse((-240, 40, 720, 640), fill=(196, 86, 64))
    for i in range(7):
        inset = 10 + i * 26
        draw.ellipse(
            (-240 + inset, 40 + inset, 720 - inset, 640 - inset), outline=(246, 240, 232), width=3
        )
    draw.ellipse((-240 + 192, 40 + 192, 720 - 192, 640 - 192), fill=(90, 150, 80))
    return image


# -- video posters --------------------------------------------------------------------------


def poster_stage() -> Image.Image:
    """A singer at the microphone under the lights."""
    w, _h = POSTER
    image = music(POSTER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 250, w, 290), fill=(50, 20, 50))
    x = w // 2
    draw.ellipse((x - 18, 120, x + 18, 158), fill=(20, 8, 30))
    draw.rounded_rectangle((x - 30, 156, x + 30, 250), 20, fill=(20, 8, 30))
    draw.line([(x + 40, 250), (x + 40, 150), (x + 20, 140)], fill=(20, 8, 30), width=4)
    return image


def _coast(size: tuple[int, int]) -> Image.Image:
    w, _ = size
    image = gradient(size, [(0, (150, 196, 226)), (1, (230, 230, 214))], bottom=200)
    glow(image, (470, 90), 24, (255, 246, 214))
    fill_below(image, hills(w, 196, [(8, 300, 0.5)]), (150, 170, 180))
    reflect(image, 205, (60, 110, 150), 0.6)
    fill_below(image, hills(w, 290, [(40, 900, 2.8), (10, 200, 0.5)]), (110, 140, 110))
    return image


def poster_journey() -> Image.Image:
    """A coast seen through a train window."""
    w, h = POSTER
    frame = Image.new("RGB", POSTER, (34, 38, 46))
    mask = Image.new("L", POSTER, 0)
    ImageDraw.Draw(mask).rounded_rectangle((40, 30, w - 40, h - 30), 36, fill=255)
    frame.paste(_coast(POSTER), (0, 0), mask)
    return frame


# -- avatars --------------------------------------------------------------------------------


def portrait(
    background: Color, skin: Color, hair: Color, shirt: Color, long_hair: bool
) -> Image.Image:
    """A head and shoulders."""
    size = AVATAR[0] * 4  # drawn large, then scaled down smoothly
    image = Image.new("RGB", (size, size), background)
    draw = ImageDraw.Draw(image)
    draw.ellipse((56, 250, 328, 520), fill=shirt)
    if long_hair:
        draw.rounded_rectangle((108, 96, 276, 290), 70, fill=hair)
    draw.rectangle((168, 210, 216, 270), fill=_mix(skin, (0, 0, 0), 0.1))
    draw.ellipse((122, 90, 262, 250), fill=skin)
    draw.chord((116, 80, 268, 210), 180, 360, fill=hair)
    return image.resize(AVATAR, Image.Resampling.LANCZOS)


def monogram(background: Color, letters: str) -> Image.Image:
    """A news account's logo: its letters on a rounded tile."""
    size = AVATAR[0] * 4
    image = Image.new("RGB", (size, size), (250, 250, 248))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((24, 24, size - 24, size - 24), 64, fill=background)
    font = ImageFont.load_default(size=150)
    draw.text((size / 2, size / 2 + 6), letters, fill=(255, 255, 255), font=font, anchor="mm")
    return image.resize(AVATAR, Image.Resampling.LANCZOS)


def bubble(background: Color, ink: Color) -> Image.Image:
    """A community account's logo: a speech bubble."""
    size = AVATAR[0] * 4
    image = Image.new("RGB", (size, size), background)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((70, 90, 314, 260), 60, fill=ink)
    draw.polygon([(130, 240), (120, 320), (190, 250)], fill=ink)
    for x in (140, 192, 244):
        draw.ellipse((x - 16, 159, x + 16, 191), fill=background)
    return image.resize(AVATAR, Image.Resampling.LANCZOS)


PLACES = {
    "porto": porto,
    "kyoto": kyoto,
    "oaxaca": oaxaca,
    "tromso": tromso,
    "marrakesh": marrakesh,
    "tbilisi": tbilisi,
    "valparaiso": valparaiso,
    "hanoi": hanoi,
}
TOPICS = {"travel": travel, "science": science, "food": food, "music": music, "sport": sport}
POSTERS = {"poster-stage": poster_stage, "poster-journey": poster_journey}
USERS = {
    "alice": ((236, 200, 170), (224, 172, 140), (120, 70, 40), (40, 90, 130), True),
    "bruno": ((190, 214, 200), (240, 200, 170), (200, 170, 110), (70, 110, 80), False),
    "chloe": ((240, 210, 200), (180, 120, 90), (40, 30, 30), (190, 70, 80), True),
    "dev_ed": ((200, 206, 230), (236, 196, 160), (50, 50, 60), (60, 60, 90), False),
    "curator": ((244, 226, 170), (120, 76, 50), (30, 24, 24), (220, 140, 40), True),
}
PALETTE = (
    (38, 94, 150),
    (180, 60, 60),
    (60, 130, 90),
    (120, 80, 160),
    (200, 120, 40),
    (40, 130, 140),
    (150, 70, 110),
    (90, 100, 60),
)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    drawn: dict[str, Image.Image] = {}
    for name, draw in {**PLACES, **TOPICS, **POSTERS}.items():
        drawn[name] = draw()
    for name, look in USERS.items():
        drawn[f"avatar-{name}"] = portrait(*look)
    for index, place in enumerate(PLACES):
        drawn[f"avatar-{place}-news"] = monogram(PALETTE[index], place[:2].title())
        ink = PALETTE[(index + 3) % len(PALETTE)]
        drawn[f"avatar-{place}-voices"] = bubble(_mix(ink, (255, 255, 255), 0.75), ink)
    for old in OUT.glob("*.webp"):  # the smaller widths too: written again below
        old.unlink()
    for name, image in drawn.items():
        image.save(OUT / f"{name}.webp", "WEBP", quality=QUALITY, method=6)
        print(
            f"{name}.webp {image.size[0]}x{image.size[1]} {(OUT / f'{name}.webp').stat().st_size} B"
        )
    smaller_widths()


def smaller_widths() -> None:
    """Each landscape's and link thumbnail's smaller ``WIDTHS``, from the file drawn."""
    for name in [*PLACES, *TOPICS]:
        with Image.open(OUT / f"{name}.webp") as drawn:
            image = drawn.convert("RGB")
        for width in (width for width in WIDTHS if width < image.width):
            height = round(image.height * width / image.width)
            smaller = image.resize((width, height), Image.Resampling.LANCZOS)
            path = OUT / f"{name}-{width}w.webp"
            smaller.save(path, "WEBP", quality=QUALITY, method=6)
            print(f"{path.name} {width}x{height} {path.stat().st_size} B")


if __name__ == "__main__":
    smaller_widths() if sys.argv[1:] == ["--widths"] else main()
