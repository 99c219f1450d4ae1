"""The emails of a booking, in the language of the person who booked.

Services call :func:`queue` inside their transaction; the email is built and
sent only once the transaction has committed (from the row as it then is),
so a rolled-back action never mails anybody. Every booking email carries a
fresh signed link to view, change or cancel the booking; the confirmation
(and every email about a confirmed booking) has the session as an .ics.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games.bookings import conf, ics, tokens
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
}
WITH_CALENDAR = {"confirmed", "changed", "reminder", "cancelled", "session_cancelled"}


def queue(kind: str, booking_id: int, **extra: Any) -> None:
    """Send this booking email once the current transaction commits."""
    if kind not in SUBJECTS:
        raise KeyError(kind)
    transaction.on_commit(lambda: send(kind, booking_id, **extra))


def queue_proposal(kind: str, proposal_id: int, **extra: Any) -> None:
    if kind not in SUBJECTS:
        raise KeyError(kind)
    transaction.on_commit(lambda: send_proposal(kind, proposal_id, **extra))


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


def send(kind: str, booking_id: int, **extra: Any) -> bool:
    try:
        booking = Booking.objects.select_related("session").get(pk=booking_id)
        build(kind, booking, **extra).send()
        return True
    except Exception:
        # The action is committed; a lost email is logged, not a failed request.
        log.exception("could not send the %s email of booking %s", kind, booking_id)
        return False


def build_proposal(kind: str, proposal: Any, now: datetime | None = None, **extra: Any) -> EmailMessage:
    with translation.override(proposal.language):
        url = absolute(reverse("bookings:proposal", args=[tokens.proposal_token(proposal, now)]))
        context = {"kind": kind, "proposal": proposal, "proposal_url": url, "site_url": conf.site_url(), **extra}
        if proposal.session_id:
            context["session_url"] = absolute(public_url(proposal.session))
        subject = str(SUBJECTS[kind]) % {"title": proposal.game.display_title}
        body = render_to_string(f"bookings/email/{kind}.txt", context)
        return EmailMessage(subject=subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL, to=[proposal.email])


def send_proposal(kind: str, proposal_id: int, **extra: Any) -> bool:
    try:
        proposal = Proposal.objects.select_related("game", "session").get(pk=proposal_id)
        build_proposal(kind, proposal, **extra).send()
        return True
    except Exception:
        log.exception("could not send the %s email of proposal %s", kind, proposal_id)
        return False
