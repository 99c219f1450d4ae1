"""QR codes for games and copies: they open the game's rules page in a language."""

from __future__ import annotations

import base64
from functools import lru_cache

import qrcode
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from catalog.models import Copy, Game


def rules_address(game: Game, language: str, copy: Copy | None = None) -> str:
    with translation.override(language):
        path = reverse("catalog:rules", args=[game.slug])
    if copy is not None:
        path += f"?exemplaire={copy.pk}"
    return settings.SITE_URL + path


@lru_cache(maxsize=2048)
def svg(data: str) -> bytes:
    """The QR code as an SVG path, a rectangle per run of dark modules (no styles,
    scaled by the page).

    One mask pattern, not the best of eight: any mask is a valid code, and choosing
    made a code ten times slower to draw (a sheet of 200 labels took seconds)."""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M, mask_pattern=0)
    code.add_data(data)
    code.make(fit=True)
    matrix = code.get_matrix()
    size = len(matrix)
    runs = []  # each row's runs of dark modules, one rectangle each: a third of the bytes of unit squares
    for y, row in enumerate(matrix):
        x = 0
        while x < size:
            if row[x]:
                start = x
                while x < size and row[x]:
                    x += 1
                runs.append(f"M{start},{y}h{x - start}v1h-{x - start}z")
            else:
                x += 1
    squares = "".join(runs)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {size} {size}" width="{size * 4}mm" height="{size * 4}mm">'
        f'<path d="{squares}" fill="#000"/></svg>'
    ).encode()


def data_uri(data: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg(data)).decode()
