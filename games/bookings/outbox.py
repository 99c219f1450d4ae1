"""The outbox: every email of the sessions is a row, written in the
transaction of the action that calls for it, and sent later by the worker
(``jobs.send_emails``), never inside a request.

So a rolled-back action mails nobody, a request takes as long whether or not
it leads to an email, and a mail server that is down delays emails instead
of failing actions: a row that could not be sent is tried again with a
growing pause (its last error kept), and marked failed after
``MAX_ATTEMPTS``. Rows are claimed with a lease (``next_attempt_at`` moved
ahead) in a short transaction and sent outside it, so two workers never send
the same row at once and no database lock is held while a mail server
answers; a worker killed mid-send leaves the row to be tried again once the
lease runs out.

A visitor's request may ask for a mail at most once per window and kind for
one address (``once_per``): the first request within the window writes the
row, the others write nothing (and the visitor sees the same answer).

This module knows rows only; what an email says is ``emails``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

MAX_ATTEMPTS = 8
# In a row's ``extra``: once sent (or given up), the row forgets its address (a deleted account's).
FORGET_AFTER_SENDING = "forget_address"
FORGOTTEN_ADDRESS = "deleted@invalid"
LEASE = timedelta(minutes=5)  # longer than a mail server's timeout
FIRST_RETRY = timedelta(minutes=1)
LONGEST_RETRY = timedelta(hours=2)


class OutgoingEmail(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("to send")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")
        SKIPPED = "skipped", _("nothing to send")

    kind = models.CharField(_("kind"), max_length=30)
    to = models.EmailField(_("to"))
    language = models.CharField(_("language"), max_length=8, default="fr")
    booking = models.ForeignKey("bookings.Booking", null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="emails")
    proposal = models.ForeignKey("bookings.Proposal", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="emails")
    extra = models.JSONField(default=dict, blank=True)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt"), default=timezone.now)
    last_error = models.TextField(_("last error"), blank=True)
    # "kind:scope:address:window" for the mails a visitor asks for: unique, so two
    # requests at the same instant cannot both write one.
    once_key = models.CharField(max_length=300, null=True, blank=True, unique=True, editable=False)
    created_at = models.DateTimeField(_("queued at"), default=timezone.now)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("outgoing email")
        verbose_name_plural = _("outgoing emails")
        indexes = [
            models.Index(fields=["status", "next_attempt_at"], name="bookings_outbox_due"),
            models.Index(fields=["to", "kind", "created_at"], name="bookings_outbox_window"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} → {self.to} ({self.status})"


def enqueue(kind: str, to: str, *, language: str = "fr", booking: Any = None, proposal: Any = None,
            extra: dict | None = None, once_per: timedelta | None = None, once_scope: str = "",
            now: datetime | None = None) -> OutgoingEmail | None:
    """Write the row (inside the caller's transaction). With ``once_per``,
    nothing is written (None) when this address already got a row of this
    kind (and ``once_scope``, e.g. one session) within that time."""
    now = now or timezone.now()
    once_key = None
    if once_per is not None:
        prefix = f"{kind}:{once_scope}:{to}:"
        recent = OutgoingEmail.objects.filter(to=to, kind=kind, created_at__gt=now - once_per,
                                              once_key__startswith=prefix)
        if recent.exists():
            return None
        once_key = f"{prefix}{int(now.timestamp() // once_per.total_seconds())}"[:300]
    row = OutgoingEmail(kind=kind, to=to, language=language, booking=booking, proposal=proposal,
                        extra=extra or {}, once_key=once_key, created_at=now, next_attempt_at=now)
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:
        if once_key is None:
            raise
        return None  # a simultaneous request wrote it
    return row


def due(now: datetime | None = None):
    """Rows whose (next) attempt has come, the oldest first."""
    now = now or timezone.now()
    return (OutgoingEmail.objects.filter(status=OutgoingEmail.Status.QUEUED, next_attempt_at__lte=now)
            .order_by("next_attempt_at", "id"))


def claim(now: datetime | None = None, limit: int = 20) -> list[OutgoingEmail]:
    """Take due rows for sending (see ``claim_one``)."""
    now = now or timezone.now()
    rows = (claim_one(pk, now) for pk in list(due(now).values_list("id", flat=True)[:limit]))
    return [row for row in rows if row is not None]


def claim_one(pk: Any, now: datetime | None = None) -> OutgoingEmail | None:
    """Take one due row for sending: its next attempt moves a lease ahead,
    in one short statement, so no other worker takes it (None: not due, or
    taken meanwhile)."""
    now = now or timezone.now()
    attempts = due(now).filter(pk=pk).values_list("attempts", flat=True).first()
    if attempts is None:
        return None
    taken = OutgoingEmail.objects.filter(
        pk=pk, status=OutgoingEmail.Status.QUEUED, attempts=attempts, next_attempt_at__lte=now,
    ).update(attempts=attempts + 1, next_attempt_at=now + LEASE)
    if not taken:
        return None
    return OutgoingEmail.objects.select_related("booking", "proposal").get(pk=pk)


def retry_pause(attempts: int) -> timedelta:
    """1 minute after the first failure, then twice as long each time, at most 2 hours."""
    return min(FIRST_RETRY * (2 ** max(0, attempts - 1)), LONGEST_RETRY)


def _done(row: OutgoingEmail, fields: list[str]) -> None:
    if row.status != OutgoingEmail.Status.QUEUED and row.extra.get(FORGET_AFTER_SENDING):
        row.to, row.extra, row.once_key = FORGOTTEN_ADDRESS, {}, None
        fields = [*fields, "to", "extra", "once_key"]
    row.save(update_fields=fields)


def mark_sent(row: OutgoingEmail, now: datetime | None = None) -> None:
    row.status, row.sent_at = OutgoingEmail.Status.SENT, now or timezone.now()
    _done(row, ["status", "sent_at"])


def mark_skipped(row: OutgoingEmail, why: str) -> None:
    row.status, row.last_error = OutgoingEmail.Status.SKIPPED, why[:2000]
    _done(row, ["status", "last_error"])


def mark_failed(row: OutgoingEmail, error: str, now: datetime | None = None) -> None:
    """Keep the error; try again later, or give up after MAX_ATTEMPTS."""
    now = now or timezone.now()
    row.last_error = error[:2000]
    if row.attempts >= MAX_ATTEMPTS:
        row.status = OutgoingEmail.Status.FAILED
    else:
        row.next_attempt_at = now + retry_pause(row.attempts)
    _done(row, ["status", "last_error", "next_attempt_at"])


def seconds_until_due(now: datetime | None = None, at_most: float = 30.0, exclude: Any = ()) -> float:
    """Seconds until the next row is due, leaving out the rows in ``exclude``
    (those the worker's bulkhead holds back)."""
    now = now or timezone.now()
    queued = OutgoingEmail.objects.filter(status=OutgoingEmail.Status.QUEUED)
    if exclude:
        queued = queued.exclude(pk__in=exclude)
    upcoming = queued.order_by("next_attempt_at").values_list("next_attempt_at", flat=True).first()
    if upcoming is None:
        return at_most
    return max(0.0, min(at_most, (upcoming - now).total_seconds()))
