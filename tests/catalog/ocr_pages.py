"""Rulebook-like page images for the OCR tests: rendered text, and the damage a poor
scan does to it (tilt, specks, low resolution, JPEG artefacts)."""

from __future__ import annotations

import io
import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from tests.conftest import require

SERIF_FONTS = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf",
]
LINES = [
    "Chaque joueur place ses éléphants sur les cases",
    "de sa ligne de base. Le Drumlin se pose sur",
    "une case libre du plateau, puis le premier joueur",
    "déplace une pièce d'une case vers l'avant.",
    "Une pièce retournée vaut deux points au lieu d'un.",
]


def serif(size: int) -> ImageFont.FreeTypeFont:
    path = next((p for p in SERIF_FONTS if Path(p).is_file()), None)
    require(path is not None, "no DejaVu or Liberation serif font (Debian fonts-dejavu-core)")
    return ImageFont.truetype(path, size)


def page(lines: list[str] = LINES, size: int = 40) -> Image.Image:
    """Black text on white as a 300 dpi scan of 10 pt print would show it."""
    font, step = serif(size), round(size * 1.4)
    image = Image.new("L", (1400, 120 + len(lines) * step), 255)
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        draw.text((80, 60 + row * step), line, font=font, fill=0)
    return image


def tilted(image: Image.Image, degrees: float) -> Image.Image:
    """Turned anticlockwise, as paper laid askew on the scanner."""
    return image.rotate(degrees, resample=Image.Resampling.BICUBIC, fillcolor=255, expand=True)


def at_lower_resolution(image: Image.Image, divisor: int) -> Image.Image:
    return image.resize((image.width // divisor, image.height // divisor), Image.Resampling.BOX)


def speckled(image: Image.Image, share: float, seed: int = 3) -> Image.Image:
    rng = random.Random(seed)
    out = image.copy()
    pixels = out.load()
    for _ in range(int(out.width * out.height * share)):
        x, y = rng.randrange(out.width), rng.randrange(out.height)
        pixels[x, y] = 0 if pixels[x, y] > 128 else 255
    return out


def jpeg(image: Image.Image, quality: int) -> Image.Image:
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=quality)
    return Image.open(io.BytesIO(buffer.getvalue())).convert("L")


def poor_scan(image: Image.Image) -> Image.Image:
    """Tilted 3°, at 100 dpi, 2% of the pixels flipped, JPEG at quality 20."""
    return jpeg(speckled(at_lower_resolution(tilted(image, 3), 3), 0.02), 20)


def png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()
