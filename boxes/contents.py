"""What a copy should hold: its own list when it has one, else its game's template.

Hosts edit a game's template (``set_game_items``) or one copy's list
(``set_copy_items``: the first edit copies the template, so the copy keeps every
other line as the game has it). ``reset_copy`` drops a copy's own list.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _

from boxes.errors import BoxError
from boxes.models import MAX_QUANTITY, ContentItem, CopyItem
from catalog.collection.models import Game
from catalog.shelves.models import Copy

MAX_ITEMS = 200


@dataclass(frozen=True)
class Line:
    group: str
    label: str
    quantity: int
    essential: bool = False
    picture: int | None = field(default=None, compare=False)  # the template item whose picture shows it

    def __str__(self) -> str:
        return f"{self.quantity} {self.label}"


def _lines(rows) -> list[Line]:
    lines = []
    for r in rows:
        template = r if isinstance(r, ContentItem) else r.template
        picture = template.pk if template is not None and template.picture else None
        lines.append(Line(r.group, r.label, r.quantity, r.essential, picture))
    return lines


def template_of(game: Game) -> list[Line]:
    return _lines(game.content_items.all())


def contents_of(copy: Copy) -> list[Line]:
    """The copy's own list, else its game's template (empty when neither is known)."""
    own = list(CopyItem.objects.filter(copy=copy).select_related("template"))
    if own:
        return _lines(own)
    return _lines(ContentItem.objects.filter(game_id=copy.game_id))


def has_own_list(copy: Copy) -> bool:
    return CopyItem.objects.filter(copy=copy).exists()


def clean_lines(lines: list[Line]) -> list[Line]:
    """Lines tidied (spaces), checked (a label, a count within reason, each label
    once); a BoxError names every bad line, and nothing is written."""
    cleaned, errors, seen = [], [], set()
    for n, line in enumerate(lines, 1):
        label = " ".join((line.label or "").split())
        group = " ".join((line.group or "").split())
        if not label:
            errors.append(_("line %(n)d: say what the item is") % {"n": n})
            continue
        if len(label) > 120 or len(group) > 60:
            errors.append(_("line %(n)d: too long") % {"n": n})
            continue
        if not isinstance(line.quantity, int) or not 1 <= line.quantity <= MAX_QUANTITY:
            errors.append(_("line %(n)d: a count from 1 to %(most)d") % {"n": n, "most": MAX_QUANTITY})
            continue
        if label.casefold() in seen:
            errors.append(_("line %(n)d: “%(label)s” is listed twice") % {"n": n, "label": label})
            continue
        seen.add(label.casefold())
        cleaned.append(Line(group, label, line.quantity, bool(line.essential)))
    if len(cleaned) > MAX_ITEMS:
        errors.append(_("at most %(most)d items") % {"most": MAX_ITEMS})
    if errors:
        raise BoxError("; ".join(errors))
    return cleaned


@transaction.atomic
def set_game_items(game: Game, lines: list[Line]) -> list[ContentItem]:
    """Replace the game's template (pictures of items kept by label)."""
    lines = clean_lines(lines)
    pictures = {i.label.casefold(): i.picture for i in game.content_items.all() if i.picture}
    game.content_items.all().delete()
    return ContentItem.objects.bulk_create([
        ContentItem(game=game, group=line.group, label=line.label, quantity=line.quantity, essential=line.essential,
                    position=n, picture=pictures.get(line.label.casefold(), ""))
        for n, line in enumerate(lines)
    ])


@transaction.atomic
def set_copy_items(copy: Copy, lines: list[Line]) -> list[CopyItem]:
    """Give the copy its own list (where it differs from its game's)."""
    lines = clean_lines(lines)
    templates = {i.label.casefold(): i for i in ContentItem.objects.filter(game_id=copy.game_id)}
    CopyItem.objects.filter(copy=copy).delete()
    return CopyItem.objects.bulk_create([
        CopyItem(copy=copy, group=line.group, label=line.label, quantity=line.quantity, essential=line.essential,
                 position=n, template=templates.get(line.label.casefold()))
        for n, line in enumerate(lines)
    ])


@transaction.atomic
def reset_copy(copy: Copy) -> None:
    """The copy holds what its game's template says again."""
    CopyItem.objects.filter(copy=copy).delete()


def parse_text(text: str) -> list[Line]:
    """Lines typed one per line, as "12 violet pieces" or "Pieces: 12 violet pieces"
    (a leading "!" marks an essential item). A BoxError names the bad lines."""
    lines, errors = [], []
    for n, raw in enumerate((text or "").splitlines(), 1):
        raw = raw.strip()
        if not raw:
            continue
        essential = raw.startswith("!")
        raw = raw.lstrip("!").strip()
        head, colon, tail = raw.partition(":")
        group, rest = (head.strip(), tail.strip()) if colon and not head.strip()[:1].isdigit() else ("", raw)
        number, _space, label = rest.partition(" ")
        if not number.isdigit():
            errors.append(_("line %(n)d: begin with how many, as in “12 violet pieces”") % {"n": n})
            continue
        lines.append(Line(group.strip(), label, int(number), essential))
    if errors:
        raise BoxError("; ".join(errors))
    return lines


def as_text(lines: list[Line]) -> str:
    return "\n".join(
        ("!" if line.essential else "") + (f"{line.group}: " if line.group else "") + f"{line.quantity} {line.label}"
        for line in lines
    )
