"""QR codes for games and copies: they open the game's rules page in a language."""

from __future__ import annotations

import base64
from functools import lru_cache

import qrcode
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from catalog.collection.models import Game
from catalog.shelves.models import Copy, QrCode


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
    return _uri(svg(data))


def _uri(drawn: bytes) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(drawn).decode()


def many(datas: list[str]) -> dict[str, str]:
    """Data URIs of the QR codes of ``datas``: those drawn before read in one query,
    the others drawn now and kept."""
    kept = dict(QrCode.objects.filter(data__in=set(datas)).values_list("data", "svg"))
    drawn = {d: svg(d) for d in set(datas) if d not in kept}
    if drawn:
        QrCode.objects.bulk_create(
            [QrCode(data=d, svg=b.decode()) for d, b in drawn.items()], batch_size=500, ignore_conflicts=True
        )
    return {d: _uri(kept[d].encode()) if d in kept else _uri(drawn[d]) for d in datas}


def remember(copy: Copy) -> None:
    """Draw a new copy's label codes now (in each language), not at printing."""
    many([rules_address(copy.game, language, copy) for language, _ in settings.LANGUAGES])
