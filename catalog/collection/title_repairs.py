"""Applying the title repairs to the games already in the catalogue (the importer
applies them to the lines it reads): the automatic repair, then the reviewed
mapping (catalog/data/title-repairs.csv, see catalog/collection/mojibake.py).

Each game is changed in its own savepoint: a game that cannot be saved is listed
with its reason and the others go on. A game whose title is not the garbled one a
review was written for is left alone (renamed by hand since, say); one that looks
garbled and has no review is marked "correction pending". A second run changes
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import DatabaseError, transaction

from catalog.collection import mojibake
from catalog.collection.models import Game


@dataclass
class RepairReport:
    repaired: list[tuple[int, str, str]] = field(default_factory=list)  # (game id, before, after)
    pending: list[tuple[int, str]] = field(default_factory=list)  # newly marked
    cleared: list[tuple[int, str]] = field(default_factory=list)  # no longer pending
    failed: list[tuple[int, str]] = field(default_factory=list)  # (game id, reason)


def target(game: Game, reviews: dict[int, mojibake.Review]) -> tuple[str, bool]:
    """The title a game should show and whether its correction is pending."""
    repaired, _ = mojibake.repair(game.title)
    return mojibake.reviewed(game.bgg_id, " ".join(repaired.split()) or game.title, reviews)


def repair_titles(games=None, reviews: dict[int, mojibake.Review] | None = None) -> RepairReport:
    """Repair the titles of ``games`` (all by default); see the module docstring."""
    reviews = mojibake.shipped_reviews() if reviews is None else reviews
    report = RepairReport()
    games = Game.objects.all() if games is None else games
    for game in games.only("id", "bgg_id", "title", "title_pending").order_by("id").iterator(chunk_size=2000):
        title, pending = target(game, reviews)
        if title == game.title and pending == game.title_pending:
            continue
        before, was_pending = game.title, game.title_pending
        try:
            with transaction.atomic():
                game = Game.objects.select_for_update().get(pk=game.pk)
                game.title, game.title_pending = title, pending
                game.save(update_fields=["title", "title_pending", "name_key"])
        except (DatabaseError, ValueError, Game.DoesNotExist) as exc:
            report.failed.append((game.pk, f"{type(exc).__name__}: {exc}"[:200]))
            continue
        if title != before:
            report.repaired.append((game.pk, before, title))
        if pending and not was_pending:
            report.pending.append((game.pk, title))
        elif was_pending and not pending:
            report.cleared.append((game.pk, title))
    return report
