"""The emails of a booking, in the language of the person who booked.

Services call :func:`queue` inside their transaction: it writes a row of the
outbox (``outbox``), which commits or rolls back with the action. The worker
sends the rows (:func:`deliver_due`), building each email from the booking
as it is then, never inside a request. Every booking email carries a fresh
signed link to view, change or cancel the booking; the confirmation (and
every email about a confirmed booking) has the session as an .ics.

The emails a visitor's request asks for (the link confirming a booking or a
proposal, the lost links) go to an address nobody has proved is the
visitor's: they carry no text the visitor typed, only the site's own words,
the session's or the game's, and the links.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games.bookings import conf, ics, outbox, tokens
from games.bookings.links import absolute, public_url, table_link
from games.bookings.models import Booking, Proposal

log = logging.getLogger(__name__)

SUBJECTS: dict[str, Any] = {
    "confirmed": _("Booking confirmed: %(title)s"),
    "received": _("Booking received, awaiting approval: %(title)s"),
    "waiting": _("On the waiting list: %(title)s"),
    "offer": _("A seat is free for you: %(title)s"),
    "offer_expired": _("Seat offer expired: %(title)s"),
    "changed": _("Booking changed: %(title)s"),
    "cancelled": _("Booking cancelled: %(title)s"),
    "session_cancelled": _("Session cancelled: %(title)s"),
    "declined": _("Booking declined: %(title)s"),
    "reminder": _("Tomorrow at the house: %(title)s"),
    "table_open": _("Your live table is open: %(title)s"),
    "proposal_received": _("Your session proposal: %(title)s"),
    "proposal_approved": _("Session proposal approved: %(title)s"),
    "proposal_declined": _("Session proposal declined: %(title)s"),
    "confirm_booking": _("Confirm your booking: %(title)s"),
    "confirm_proposal": _("Confirm your session proposal: %(title)s"),
    "lost_links": _("Your bookings at Ludo"),
}
# Asked for by a visitor's request, to an address not yet proved theirs.
VISITOR_KINDS = {"confirm_booking", "confirm_proposal", "lost_links"}
WITH_CALENDAR = {"confirmed", "changed", "reminder", "cancelled", "session_cancelled"}


def queue(kind: str, booking: Booking | int, **extra: Any) -> outbox.OutgoingEmail | None:
    """Put this booking email in the outbox (inside the current transaction).
    The confirmation link of one session goes at most once per window to
    one address."""
    if kind not in SUBJECTS:
        raise KeyError(kind)
    if not isinstance(booking, Booking):
        booking = Booking.objects.get(pk=booking)
    once_per = conf.mail_window() if kind in VISITOR_KINDS else None
    return outbox.enqueue(kind, booking.email, language=booking.language, booking=booking, extra=extra,
                          once_per=once_per, once_scope=f"session {booking.session_id}")


def queue_proposal(kind: str, proposal: Proposal, **extra: Any) -> outbox.OutgoingEmail | None:
    if kind not in SUBJECTS:
        raise KeyError(kind)
    once_per = conf.mail_window() if kind in VISITOR_KINDS else None
    return outbox.enqueue(kind, proposal.email, language=proposal.language, proposal=proposal, extra=extra,
                          once_per=once_per)


def queue_lost_links(email: str, language: str) -> outbox.OutgoingEmail | None:
    """The links of an address's live bookings, to that address (at most once
    per window). Whether it has any is looked up when the worker sends it,
    so the request does the same work either way."""
    return outbox.enqueue("lost_links", email, language=language, once_per=conf.mail_window())


def build(kind: str, booking: Any, now: datetime | None = None, **extra: Any) -> EmailMessage:
    """The email, in the booking's language (its links in that language too)."""
    with translation.override(booking.language):
        session = booking.session
        manage_url = absolute(reverse("bookings:manage", args=[tokens.manage_token(booking, now)]))
        context = {
            "kind": kind, "booking": booking, "session": session, "manage_url": manage_url,
            "site_url": conf.site_url(), "games": list(session.games.all()), **extra,
        }
        if kind == "table_open":
            context["table_url"] = absolute(table_link(session) or public_url(session))
        subject = str(SUBJECTS[kind]) % {"title": session.title}
        body = render_to_string(f"bookings/email/{kind}.txt", context)
        message = EmailMessage(subject=subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL, to=[booking.email])
        if kind in WITH_CALENDAR:
            message.attach(f"ludo-{session.pk}.ics", ics.booking_calendar(booking, manage_url, now), "text/calendar")
        return message


def build_confirm(booking: Booking, now: datetime | None = None) -> EmailMessage:
    """The link that confirms an unverified booking: the session, the party
    size and the deadline; nothing the visitor typed."""
    with translation.override(booking.language):
        session = booking.session
        url = absolute(reverse("bookings:confirm", args=[tokens.confirm_token(booking, now)]))
        context = {"booking": booking, "session": session, "confirm_url": url, "site_url": conf.site_url(),
                   "minutes": int(conf.confirm_within().total_seconds() // 60)}
        subject = str(SUBJECTS["confirm_booking"]) % {"title": session.title}
        body = render_to_string("bookings/email/confirm_booking.txt", context)
        return EmailMessage(subject=subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL, to=[booking.email])


def build_proposal(kind: str, proposal: Any, now: datetime | None = None, **extra: Any) -> EmailMessage:
    with translation.override(proposal.language):
        url = absolute(reverse("bookings:proposal", args=[tokens.proposal_token(proposal, now)]))
        context = {"kind": kind, "proposal": proposal, "proposal_url": url, "site_url": conf.site_url(), **extra}
        if proposal.session_id:
            context["session_url"] = absolute(public_url(proposal.session))
        subject = str(SUBJECTS[kind]) % {"title": proposal.game.display_title}
        body = render_to_string(f"bookings/email/{kind}.txt", context)
        return EmailMessage(subject=subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL, to=[proposal.email])


def build_confirm_proposal(proposal: Proposal, now: datetime | None = None) -> EmailMessage:
    with translation.override(proposal.language):
        url = absolute(reverse("bookings:confirm_proposal", args=[tokens.confirm_proposal_token(proposal, now)]))
        context = {"proposal": proposal, "confirm_url": url, "site_url": conf.site_url(),
                   "minutes": int(conf.confirm_within().total_seconds() // 60)}
        subject = str(SUBJECTS["confirm_proposal"]) % {"title": proposal.game.display_title}
        body = render_to_string("bookings/email/confirm_proposal.txt", context)
        return EmailMessage(subject=subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL, to=[proposal.email])


def build_lost_links(email: str, language: str, now: datetime | None = None) -> EmailMessage | None:
    """The links of the address's live bookings; None when it has none."""
    now = now or timezone.now()
    bookings = list(Booking.objects.filter(email=email, status__in=Booking.ACTIVE, session__ends_at__gt=now)
                    .select_related("session").order_by("session__starts_at", "id")[:20])
    if not bookings:
        return None
    with translation.override(language):
        lines = [(b, absolute(reverse("bookings:manage", args=[tokens.manage_token(b, now)]))) for b in bookings]
        body = render_to_string("bookings/email/lost_links.txt", {"lines": lines, "site_url": conf.site_url()})
        return EmailMessage(subject=str(SUBJECTS["lost_links"]), body=body, from_email=settings.DEFAULT_FROM_EMAIL,
                            to=[email])


def message_for(row: outbox.OutgoingEmail) -> EmailMessage | None:
    """The email of an outbox row as things are now; None when there is
    nothing to send any more (its booking or proposal gone, confirmed
    already, or an address without live bookings)."""
    if row.kind.startswith("account_"):  # the accounts' own emails (ludo.account.mail)
        from ludo.account import mail

        return mail.message_for(row)
    if row.kind.startswith("boxes_"):  # the hosts' weekly summary of the boxes (boxes.summary)
        from boxes import summary

        return summary.message_for(row)
    if row.kind == "lost_links":
        return build_lost_links(row.to, row.language)
    if row.kind == "confirm_booking":
        booking = row.booking
        return build_confirm(booking) if booking and booking.status == Booking.Status.UNVERIFIED else None
    if row.kind == "confirm_proposal":
        proposal = row.proposal
        return build_confirm_proposal(proposal) if proposal and proposal.status == Proposal.Status.UNVERIFIED else None
    if row.kind.startswith("proposal_"):
        return build_proposal(row.kind, row.proposal, **row.extra) if row.proposal else None
    return build(row.kind, row.booking, **row.extra) if row.booking else None


def deliver_due(now: datetime | None = None, limit: int = 20) -> int:
    """Send the outbox's due rows; returns how many were sent. A row that
    fails keeps its error and is tried again later."""
    sent = 0
    for row in outbox.claim(now, limit):
        try:
            sent += deliver(row)
        except Exception:
            log.warning("could not build outbox email %s (%s)", row.pk, row.kind, exc_info=True)
    return sent


def deliver_one(pk: Any, now: datetime | None = None) -> bool:
    """Claim one outbox row and send it (the worker's job, row by row)."""
    row = outbox.claim_one(pk, now)
    return False if row is None else deliver(row)


def deliver(row: outbox.OutgoingEmail) -> bool:
    """Send a claimed row; True if it was sent. A mail server that fails is
    the outbox's business (the row is tried again later, its error kept); an
    email that cannot be built is kept the same way and raises as well, for
    the worker to set the row aside after a few tries (ludo.bulkheads)."""
    try:
        message = message_for(row)
    except Exception as exc:
        outbox.mark_failed(row, f"{type(exc).__name__}: {exc}")
        raise
    if message is None:
        outbox.mark_skipped(row, "nothing to send any more")
        return False
    # To the address as it was when the action called for the email: a booking
    # anonymised since (its account deleted) still tells its guest it was cancelled.
    message.to = [row.to]
    try:
        message.send()
    except Exception as exc:
        log.warning("could not send outbox email %s (%s), attempt %s", row.pk, row.kind, row.attempts,
                    exc_info=True)
        outbox.mark_failed(row, f"{type(exc).__name__}: {exc}")
        return False
    outbox.mark_sent(row)
    return True
