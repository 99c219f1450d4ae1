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
    """The QR code as an SVG path of unit squares (no styles, scaled by the page).

    One mask pattern, not the best of eight: any mask is a valid code, and choosing
    made a code ten times slower to draw (a sheet of 200 labels took seconds)."""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M, mask_pattern=0)
    code.add_data(data)
    code.make(fit=True)
    matrix = code.get_matrix()
    size = len(matrix)
    squares = "".join(
        f"M{x},{y}H{x + 1}V{y + 1}H{x}z" for y, row in enumerate(matrix) for x, dark in enumerate(row) if dark
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {size} {size}" width="{size * 4}mm" height="{size * 4}mm">'
        f'<path d="{squares}" fill="#000"/></svg>'
    ).encode()


def data_uri(data: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg(data)).decode()
