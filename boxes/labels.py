"""What a box's printed label says, read back: the shelf check's scanner hands
over the text of a QR code (or what a host typed) and gets the copy it names,
or the reason it names none.

The house's labels (catalog/shelves/labels.py) encode the game's rules page in
the language of the sheet, with the box: ``SITE_URL + /catalogue/jeu/<slug>/regles/
?exemplaire=<id>`` (``/en/catalogue/game/<slug>/rules/...`` on an English sheet).
A label is read as the house's only when it is exactly one of those addresses
for that box; anything else (another site's code, a box the catalogue does not
have, the label of a box whose game the catalogue now says is another) is an
unknown label, with its reason. A host typing by hand may give the box's number
("123", "#123", "n° 123"); a code the camera read may not: another library's
sticker that holds its own inventory number is an unknown label, not one of
this house's boxes seen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from catalog.shelves import qr
from catalog.shelves.models import Copy

LONGEST = 600  # a label's address is ~80 characters; QrCode.data holds 600
_NUMBER = re.compile(r"^(?:n°|no\.?|#)?\s*([0-9]{1,9})$", re.IGNORECASE)
_BOX = re.compile(r"[?&]exemplaire=([0-9]{1,9})$")


# Why a text names no box, by code: the code and its values are stored (an unknown
# label of a shelf check), and said in the language of whoever reads them.
REASONS = {
    "empty": _("Nothing was read."),
    "foreign": _("Not a label of this house."),
    "no_number": _("No box number %(n)s in the catalogue."),
    "no_box": _("A label of box %(n)s, which the catalogue does not have."),
    "mismatch": _("This label does not match box %(n)s (%(game)s, shelf %(shelf)s)."),
}


def explain(why: str, args: dict | None = None) -> str:
    """The reason ``why`` (a code of REASONS) in the current language, with its values."""
    template = REASONS.get(why)
    if template is None:
        return ""
    return str(template) % args if args else str(template)


@dataclass(frozen=True)
class Reading:
    """A label read: the copy it names, or ``copy`` None and why not (a code of
    REASONS and its values)."""

    text: str
    copy: Copy | None = None
    why: str = ""
    args: dict = field(default_factory=dict)

    @property
    def reason(self) -> str:
        return explain(self.why, self.args)


def _origin(address: str) -> tuple[str, str]:
    parts = urlsplit(address)
    return parts.scheme.lower(), parts.netloc.lower()


def _copy(pk: int) -> Copy | None:
    return Copy.objects.select_related("game").filter(pk=pk).first()


def read(text: str, typed: bool = True) -> Reading:
    """The copy ``text`` names (a label's QR code, or a box number ``typed`` by hand), else why not."""
    text = (text or "").strip()
    if not text:
        return Reading(text, why="empty")
    if len(text) > LONGEST or not text.isprintable():  # kept readable, and storable (no NUL byte)
        shown = "".join(ch if ch.isprintable() else "\ufffd" for ch in text[:LONGEST])
        return Reading(shown, why="foreign")
    number = _NUMBER.match(text) if typed else None
    if number:
        copy = _copy(int(number.group(1)))
        if copy is None:
            return Reading(text, why="no_number", args={"n": number.group(1)})
        return Reading(text, copy)
    box = _BOX.search(text)
    if box is None or _origin(text) != _origin(settings.SITE_URL):
        return Reading(text, why="foreign")
    copy = _copy(int(box.group(1)))
    if copy is None:
        return Reading(text, why="no_box", args={"n": box.group(1)})
    if text not in {qr.rules_address(copy.game, language, copy) for language, _name in settings.LANGUAGES}:
        return Reading(text, why="mismatch",
                       args={"n": copy.pk, "game": copy.game.display_title, "shelf": copy.shelf})
    return Reading(text, copy)
