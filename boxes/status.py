"""Whether a box can be played: "incomplete" while it has open shortfalls, "not
playable" while one of them is marked blocking (the host decides per item: a card
of 60 vs the only die). The picker and the booking forms leave out what
:func:`unplayable_game_ids` and :func:`unplayable_copy_ids` name."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from boxes.models import BoxState, Shortfall
from catalog.collection.models import Game
from catalog.shelves.models import Copy


def state_of(copy: Copy) -> BoxState:
    state, _created = BoxState.objects.get_or_create(copy=copy)
    return state


def refresh(copy: Copy) -> BoxState:
    """Recompute the copy's flags from its open shortfalls (inside the caller's transaction)."""
    state = state_of(copy)
    open_ = Shortfall.objects.filter(copy=copy, open=True)
    state.incomplete = open_.exists()
    state.unplayable = open_.filter(blocking=True).exists()
    BoxState.objects.filter(pk=state.pk).update(incomplete=state.incomplete, unplayable=state.unplayable)
    return state


def unplayable_copy_ids() -> set[int]:
    return set(BoxState.objects.filter(unplayable=True).values_list("copy_id", flat=True))


def unplayable_game_ids() -> set[int]:
    """Games none of whose copies on the shelf can be played (and the games printed in
    such a box): the picker and the booking forms leave them out."""
    blocked = set(BoxState.objects.filter(unplayable=True).values_list("copy__game_id", flat=True))
    if not blocked:
        return set()
    playable_elsewhere = set(
        Copy.objects.filter(game_id__in=blocked, status=Copy.Status.AVAILABLE)
        .exclude(box_state__unplayable=True).values_list("game_id", flat=True)
    )
    boxes = blocked - playable_elsewhere
    inside = Game.objects.filter(kind=Game.Kind.IN_BOX, base_game_id__in=boxes).values_list("id", flat=True)
    return boxes | set(inside)


def incomplete_only(games: Iterable[Game]) -> dict[int, int]:
    """{game id: its boxes on the shelf} for the games whose playable boxes on the
    shelf are all incomplete (still playable, pieces missing), in one query. A game
    printed in another's box is played from that box (or from a copy of its own)."""
    games = list(games)
    boxes_of = {game.pk: {game.pk} for game in games}
    for game in games:
        if game.kind == Game.Kind.IN_BOX and game.base_game_id:
            boxes_of[game.pk].add(game.base_game_id)
    if not boxes_of:
        return {}
    shelf: dict[int, list[bool]] = {}
    for game_id, incomplete in (
        Copy.objects.filter(game_id__in=set().union(*boxes_of.values()), status=Copy.Status.AVAILABLE)
        .exclude(box_state__unplayable=True).values_list("game_id", "box_state__incomplete")
    ):
        shelf.setdefault(game_id, []).append(bool(incomplete))
    counts = {}
    for game_id, boxes in boxes_of.items():
        found = [flag for box in boxes for flag in shelf.get(box, [])]
        if found and all(found):
            counts[game_id] = len(found)
    return counts


@transaction.atomic
def set_blocking(shortfall_id: int, blocking: bool) -> Shortfall:
    shortfall = Shortfall.objects.select_for_update().select_related("copy").get(pk=shortfall_id)
    shortfall.blocking = bool(blocking)
    shortfall.save(update_fields=["blocking"])
    refresh(shortfall.copy)
    return shortfall


def game_notice(game: Game) -> dict[str, int]:
    """How many of the game's boxes are incomplete and how many not playable (the game page)."""
    box_game = game.base_game_id if game.kind == Game.Kind.IN_BOX and game.base_game_id else game.pk
    states = BoxState.objects.filter(copy__game_id=box_game)
    return {
        "incomplete": states.filter(incomplete=True, unplayable=False).count(),
        "unplayable": states.filter(unplayable=True).count(),
    }
