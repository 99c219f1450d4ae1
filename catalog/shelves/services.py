"""Shelf actions: one function per action, each in a transaction.

Views, admin and management commands parse and authorise, then call these; bad
input raises :class:`catalog.errors.CatalogError` and changes nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from catalog.collection.models import Edition, Game
from catalog.errors import CatalogError, full_clean
from catalog.shelves import qr
from catalog.shelves.models import Copy, MissingPart


@transaction.atomic
def add_copy(game: Game, shelf: str, *, edition: Edition | None = None, **fields) -> Copy:
    copy = Copy(game=game, edition=edition, shelf=shelf.strip().upper(), **fields)
    full_clean(copy)
    copy.save()
    qr.remember(copy)  # its label prints without drawing
    return copy


@transaction.atomic
def set_copy_status(copy: Copy, status: str) -> Copy:
    if status not in Copy.Status.values:
        raise CatalogError(f"unknown status {status!r}")
    Copy.objects.filter(pk=copy.pk).update(status=status)
    copy.status = status
    return copy


@transaction.atomic
def report_missing_part(copy: Copy, description: str, user=None) -> MissingPart:
    description = " ".join((description or "").split())
    if not description:
        raise CatalogError("say what is missing")
    if len(description) > 300:
        raise CatalogError("a missing part is described in at most 300 characters")
    return MissingPart.objects.create(copy=copy, description=description, reported_by=user)


@transaction.atomic
def mark_part_found(part: MissingPart) -> MissingPart:
    part.found_at = timezone.now()
    part.save(update_fields=["found_at"])
    return part
