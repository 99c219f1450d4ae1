"""QR codes for games and copies: they open the game's rules page in a language."""

from __future__ import annotations

import base64
import io

import qrcode
import qrcode.image.svg
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


def svg(data: str) -> bytes:
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2,
                        error_correction=qrcode.constants.ERROR_CORRECT_M)
    buffer = io.BytesIO()
    image.save(buffer)
    return buffer.getvalue()


def data_uri(data: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg(data)).decode()
