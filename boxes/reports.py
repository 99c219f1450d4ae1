"""Reports for the hosts, as CSV through the project's spreadsheet writer:
the open missing parts by game (what to order), and the copies not counted for
some months."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from boxes.models import Shortfall
from catalog.shelves.labels import shelf_key
from catalog.shelves.models import Copy
from ludo.spreadsheet import SafeWriter


def missing_by_game():
    return (Shortfall.objects.filter(open=True).select_related("copy__game", "part")
            .order_by("copy__game__title", "copy__shelf", "id"))


def write_missing(stream) -> None:
    writer = SafeWriter(stream)
    writer.writerow(["game", "shelf", "copy", "item", "missing", "playable", "since"])
    for s in missing_by_game():
        writer.writerow([s.copy.game.title, s.copy.shelf, s.copy_id, s.label, s.quantity,
                         "no" if s.blocking else "yes", timezone.localtime(s.part.reported_at).date().isoformat()])


def not_counted(months: int, now: datetime | None = None) -> list[Copy]:
    """Copies whose last count is older than ``months`` (or that were never counted), in shelf order."""
    cutoff = (now or timezone.now()) - timedelta(days=30 * months)
    copies = (Copy.objects.filter(Q(box_state__isnull=True) | Q(box_state__counted_at__isnull=True)
                                  | Q(box_state__counted_at__lt=cutoff))
              .select_related("game", "box_state").only("id", "shelf", "game__title", "box_state__counted_at"))
    return sorted(copies, key=lambda c: (shelf_key(c.shelf), c.pk))


def write_not_counted(stream, months: int) -> None:
    writer = SafeWriter(stream)
    writer.writerow(["shelf", "game", "copy", "last counted"])
    for c in not_counted(months):
        state = getattr(c, "box_state", None)
        last = timezone.localtime(state.counted_at).date().isoformat() if state and state.counted_at else ""
        writer.writerow([c.shelf, c.game.title, c.pk, last])
