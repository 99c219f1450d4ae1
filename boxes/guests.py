"""The guests' word from a box's QR page: "a piece is missing", "I found a piece".

No account is needed; the views rate-limit each address and person (ludo.limits).
Reports only wait for a host: nothing a guest says changes a box until a host
confirms it (a missing piece becomes a shortfall of the box, a found one a stray
piece). A box takes at most ``PENDING_PER_COPY`` reports waiting, and the house
``PENDING_AT_MOST``: a flood from many addresses fills no disk and buries nothing
the hosts already have.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from boxes import counting, status, tracing
from boxes.errors import BoxError
from boxes.models import GuestReport, Shortfall, StrayPiece
from catalog import media
from catalog.shelves.models import Copy, MissingPart

PENDING_PER_COPY = 10
PENDING_AT_MOST = 500


@transaction.atomic
def report(copy: Copy, kind: str, description: str, belongs_to: str = "", photo=None) -> GuestReport:
    if kind not in GuestReport.Kind.values:
        raise BoxError(_("Unknown kind of report."))
    description = " ".join((description or "").split())
    belongs_to = " ".join((belongs_to or "").split())
    if not description:
        raise BoxError(_("Say which piece, in a few words."))
    if len(description) > 300 or len(belongs_to) > 200:
        raise BoxError(_("A few words are enough (at most 300 characters)."))
    pending = GuestReport.objects.filter(status=GuestReport.Status.PENDING)
    if pending.filter(copy=copy).count() >= PENDING_PER_COPY or pending.count() >= PENDING_AT_MOST:
        raise BoxError(_("The hosts already have many reports to look at: tell them at the house, thank you."))
    row = GuestReport(copy=copy, kind=kind, description=description, belongs_to=belongs_to)
    if photo:
        row.photo = photo  # stored under a random name, its type read from its bytes (models._photo_path)
    row.save()
    return row


def _head(upload) -> bytes:
    upload.seek(0)
    head = upload.read(media.HEAD_BYTES)
    upload.seek(0)
    return head


@transaction.atomic
def confirm(report_id: int, by, blocking: bool = False) -> GuestReport:
    """A host confirms: a missing piece becomes a shortfall of the box (traced like a
    count's), a found one a stray piece. Confirming twice does nothing more."""
    row = GuestReport.objects.select_for_update().select_related("copy").get(pk=report_id)
    if row.status != GuestReport.Status.PENDING:
        return row
    now = timezone.now()
    if row.kind == GuestReport.Kind.MISSING:
        state = status.state_of(row.copy)
        part = MissingPart.objects.create(copy=row.copy, description=row.description, reported_by=by)
        shortfall = Shortfall.objects.create(part=part, copy=row.copy, label=row.description[:120], quantity=1,
                                             blocking=blocking, since=state.complete_at)
        shortfall.sessions.set(tracing.sessions_between(row.copy, state.complete_at, row.created_at))
        shortfall.plays.set(tracing.plays_between(row.copy, state.complete_at, row.created_at))
        status.refresh(row.copy)
    else:
        game = counting.find_game(row.belongs_to) if row.belongs_to else None
        StrayPiece.objects.create(found_in=row.copy, belongs_to=game, description=row.description, found_by=by)
    row.status, row.handled_by, row.handled_at = GuestReport.Status.CONFIRMED, by, now
    row.save(update_fields=["status", "handled_by", "handled_at"])
    return row


@transaction.atomic
def dismiss(report_id: int, by) -> GuestReport:
    row = GuestReport.objects.select_for_update().get(pk=report_id)
    if row.status == GuestReport.Status.PENDING:
        row.status, row.handled_by, row.handled_at = GuestReport.Status.DISMISSED, by, timezone.now()
        row.save(update_fields=["status", "handled_by", "handled_at"])
    return row


def pending():
    return GuestReport.objects.filter(status=GuestReport.Status.PENDING).select_related("copy__game")
