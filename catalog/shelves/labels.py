"""Shelf labels: one per copy, with a QR code to the game's rules page, in the
order the shelves are walked (natural order: A2 before A10, D5 before D5#)."""

from __future__ import annotations

import re

from catalog.shelves import qr
from catalog.shelves.models import Copy

MOST = 400
_SHELF = re.compile(r"^([A-Z]*)([0-9]*)(#?)$")


def shelf_key(shelf: str) -> tuple[str, int, str]:
    """Letters, then the number as a number, then the hidden-behind mark."""
    match = _SHELF.match(shelf or "")
    if match is None:
        return (shelf or "", 0, "")
    letters, number, hidden = match.groups()
    return (letters, int(number or 0), hidden)


def sheet(prefix: str, language: str) -> list[tuple[Copy, str]]:
    """The copies whose shelf begins with ``prefix`` (all when empty), in shelf
    order, each with its QR code as a data URI; at most MOST labels."""
    copies = Copy.objects.select_related("game").only(
        "id", "shelf", "game__id", "game__slug", "game__title", "game__title_fr", "game__title_de", "game__title_en",
        "game__min_players", "game__max_players", "game__min_time", "game__max_time",
    )
    if prefix:
        copies = copies.filter(shelf__startswith=prefix)
    ordered = sorted(copies, key=lambda c: (shelf_key(c.shelf), c.id))[:MOST]
    addresses = [qr.rules_address(c.game, language, c) for c in ordered]
    codes = qr.many(addresses)
    return [(c, codes[address]) for c, address in zip(ordered, addresses)]
