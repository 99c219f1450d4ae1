"""Double opt-in: what a visitor asks for with an email address waits until
that address confirms it through an emailed link, within a short deadline
(``conf.confirm_within``, 30 minutes), as pretix does.

An unverified booking holds no seat and no place on the waiting list. Were it
to hold them until its deadline, a script booking every seat with invented
addresses every half hour would keep a session full for good; this way
invented addresses block nobody, however many. The price is small: seats may
go while a real guest finds the email, and the confirmation then places the
booking as one made at that moment would be (seats, else the waiting list,
else a clear refusal). An unverified booking or proposal nobody confirmed
lapses by itself (``lapse_unverified``, a worker job): its row is deleted.

The answer to a visitor never depends on whether the address has booked
before: a second booking for an address that already holds one becomes an
unverified booking like any other, and only the confirmation (made by
whoever reads that mailbox) says so. One address gets at most one
confirmation email per session and window (``emails.queue``); the link
confirms the row as last asked for. A party without an account that owns
its address is at most ``conf.unverified_max_seats`` people.

An account that owns the address (``address_verified``) skips all this. An
account confirming a link sent to an address makes that address its own
from then on (``VerifiedAddress``), unless another account did first
(``ludo.accounts.remember_address``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.bookings import conf, emails
from games.bookings.errors import BookingError
from games.bookings.models import Booking, Proposal
from games.bookings.services.booking import (
    PLACED_EMAIL,
    address_verified,
    book,
    can_see,
    check_bookable,
    place_time,
    placement,
)
from games.bookings.services.inputs import clean_email, clean_language, clean_name, clean_seats
from games.bookings.services.locks import lock_booking, lock_session
from games.bookings.services.proposals import propose
from ludo.accounts import remember_address


def _remember(user: Any, email: str, now: datetime) -> None:
    # Never for a second account: an address another account confirmed stays that one's.
    remember_address(user, email, now)


@transaction.atomic
def request_booking(session_id: Any, *, name: Any, email: Any, seats: Any, user: Any = None,
                    language: Any = "fr", note: Any = "", invite: str | None = None,
                    now: datetime | None = None) -> Booking:
    """A visitor books: directly with an account that owns the address,
    otherwise an unverified booking and the email that confirms it."""
    now = now or timezone.now()
    email = clean_email(email)
    if address_verified(user, email):
        return book(session_id, name=name, email=email, seats=seats, user=user, language=language, note=note,
                    invite=invite, now=now)
    name, seats, language = clean_name(name), clean_seats(seats), clean_language(language)
    note = " ".join(str(note or "").split())[:500]
    if seats > conf.unverified_max_seats():
        raise BookingError("party_too_large_unverified", max=conf.unverified_max_seats())
    session = lock_session(session_id)
    if not can_see(session, invite, user):
        raise BookingError("invitation_only")
    check_bookable(session, seats, now)
    placement(session, seats)  # a session full with its waiting list refuses now, whoever asks
    account = user if getattr(user, "is_authenticated", False) else None
    fields = {"name": name, "seats": seats, "language": language, "note": note, "user": account,
              "confirm_by": now + conf.confirm_within(), "created_at": now}
    booking = session.bookings.select_for_update().filter(email=email, status=Booking.Status.UNVERIFIED).first()
    if booking is None:
        booking = Booking.objects.create(session=session, email=email, status=Booking.Status.UNVERIFIED, **fields)
    else:
        for field, value in fields.items():
            setattr(booking, field, value)
        booking.save()
    emails.queue("confirm_booking", booking)
    return booking


@transaction.atomic
def confirm_booking(booking_id: Any, now: datetime | None = None) -> tuple[Booking, bool]:
    """The address confirmed: place the booking now. Returns the booking and
    whether it is one the address already had (this one is then dropped).
    Following the link again is harmless: the booking is returned as it is."""
    given_now, now = now, now or timezone.now()
    try:
        session, booking = lock_booking(booking_id)
    except BookingError:
        raise BookingError("confirm_expired") from None
    if booking.status != Booking.Status.UNVERIFIED:
        return booking, False
    if now >= booking.confirm_by:
        raise BookingError("confirm_expired")
    existing = (session.bookings.select_for_update().filter(email=booking.email, status__in=Booking.ACTIVE)
                .first())
    _remember(booking.user, booking.email, now)
    if existing is not None:
        booking.delete()
        return existing, True
    check_bookable(session, booking.seats, now)
    booking.status = placement(session, booking.seats)
    booking.confirm_by = None
    booking.created_at = place_time(session, given_now)  # its place in line counts from now, under the lock
    booking.save()
    emails.queue(PLACED_EMAIL[booking.status], booking)
    return booking, False


@transaction.atomic
def request_proposal(*, game: Any, starts_at: datetime, ends_at: datetime, seats: Any, name: Any, email: Any,
                     user: Any = None, language: Any = "fr", message: Any = "",
                     now: datetime | None = None) -> Proposal:
    """A visitor proposes a session: straight to the hosts with an account
    that owns the address; otherwise unverified, and the email that confirms
    it (it carries the game and the time, never the visitor's message)."""
    now = now or timezone.now()
    email = clean_email(email)
    unverified = {} if address_verified(user, email) else {
        "status": Proposal.Status.UNVERIFIED, "confirm_by": now + conf.confirm_within()}
    return propose(game=game, starts_at=starts_at, ends_at=ends_at, seats=seats, name=name, email=email,
                   user=user, language=language, message=message, now=now, **unverified)


@transaction.atomic
def confirm_proposal(proposal_id: Any, now: datetime | None = None) -> Proposal:
    """The address confirmed: the proposal goes to the hosts (and the
    proposer gets the usual acknowledgement). Harmless if followed again."""
    now = now or timezone.now()
    proposal = Proposal.objects.select_for_update().filter(pk=int(proposal_id)).first()
    if proposal is None:
        raise BookingError("confirm_expired")
    if proposal.status != Proposal.Status.UNVERIFIED:
        return proposal
    if now >= proposal.confirm_by:
        raise BookingError("confirm_expired")
    proposal.status = Proposal.Status.PENDING
    proposal.confirm_by = None
    proposal.save()
    _remember(proposal.user, proposal.email, now)
    emails.queue_proposal("proposal_received", proposal)
    return proposal


def lapse_unverified(now: datetime | None = None, limit: int = 500) -> int:
    """Delete the unverified bookings and proposals whose deadline passed.
    They held nothing, so nothing else moves."""
    now = now or timezone.now()
    bookings = list(lapsed_bookings(now).values_list("id", flat=True)[:limit])
    proposals = list(lapsed_proposals(now).values_list("id", flat=True)[:limit])
    return (sum(lapse_booking(pk, now) for pk in bookings)
            + sum(lapse_proposal(pk, now) for pk in proposals))


def lapsed_bookings(now: datetime | None = None):
    """Unverified bookings nobody confirmed in time."""
    now = now or timezone.now()
    return Booking.objects.filter(status=Booking.Status.UNVERIFIED, confirm_by__lte=now).order_by(
        "confirm_by", "id")


def lapsed_proposals(now: datetime | None = None):
    """Unverified proposals nobody confirmed in time."""
    now = now or timezone.now()
    return Proposal.objects.filter(status=Proposal.Status.UNVERIFIED, confirm_by__lte=now).order_by(
        "confirm_by", "id")


@transaction.atomic
def lapse_booking(booking_id: Any, now: datetime | None = None) -> int:
    """Delete one lapsed unverified booking (0 if confirmed meanwhile)."""
    return int(lapsed_bookings(now).filter(pk=booking_id).delete()[1].get(Booking._meta.label, 0) > 0)


@transaction.atomic
def lapse_proposal(proposal_id: Any, now: datetime | None = None) -> int:
    """Delete one lapsed unverified proposal (0 if confirmed meanwhile)."""
    return int(lapsed_proposals(now).filter(pk=proposal_id).delete()[1].get(Proposal._meta.label, 0) > 0)


@transaction.atomic
def request_links(email: Any, language: Any = "fr") -> None:
    """Lost links: one email with the links of the address's live bookings,
    at most once per window. Whether the address has any is looked up only
    when the worker builds the email, so this does the same work either way."""
    emails.queue_lost_links(clean_email(email), clean_language(language))
