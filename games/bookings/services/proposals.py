"""Sessions proposed by guests around a game: propose, then a host approves
(the session is created and the proposer's party booked) or declines."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.bookings import emails
from games.bookings.errors import BookingError
from games.bookings.models import Booking, Proposal, Session
from games.bookings.services.inputs import (
    check_times,
    clean_capacity,
    clean_email,
    clean_language,
    clean_name,
    clean_seats,
)
from games.bookings.services.locks import require_staff
from games.bookings.services.sessions import create_session


@transaction.atomic
def propose(*, game: Any, starts_at: datetime, ends_at: datetime, seats: Any, name: Any, email: Any,
            user: Any = None, language: Any = "fr", message: Any = "", now: datetime | None = None,
            **unverified: Any) -> Proposal:
    """A guest whose address is known to be theirs proposes a session around
    a game; the hosts decide. Visitors come through ``request_proposal``, which
    passes ``status`` and ``confirm_by``: the proposal then waits for the address
    to be confirmed, and the email sent is the confirmation link."""
    now = now or timezone.now()
    if game is None:
        raise BookingError("bad_value", field="game", problem="?")
    check_times(starts_at, ends_at)
    if starts_at <= now:
        raise BookingError("in_the_past")
    proposal = Proposal.objects.create(
        game=game, starts_at=starts_at, ends_at=ends_at, seats=clean_seats(seats), name=clean_name(name),
        email=clean_email(email), user=user if getattr(user, "is_authenticated", False) else None,
        language=clean_language(language), message=str(message or "").strip()[:2000], **unverified,
    )
    emails.queue_proposal("confirm_proposal" if unverified else "proposal_received", proposal)
    return proposal


def _lock_proposal(proposal_id: Any) -> Proposal:
    try:
        proposal = Proposal.objects.select_for_update().get(pk=int(proposal_id))
    except (Proposal.DoesNotExist, TypeError, ValueError):
        raise BookingError("no_proposal") from None
    if proposal.status != Proposal.Status.PENDING:
        raise BookingError("proposal_decided")
    return proposal


@transaction.atomic
def approve_proposal(proposal_id: Any, by: Any, *, capacity: int, now: datetime | None = None,
                     **values: Any) -> Session:
    """Create the proposed session and book the proposer's party on it."""
    require_staff(by)
    now = now or timezone.now()
    proposal = _lock_proposal(proposal_id)
    if clean_capacity(capacity) < proposal.seats:
        raise BookingError("capacity_below_party", seats=proposal.seats)
    session = create_session(by, starts_at=proposal.starts_at, ends_at=proposal.ends_at, capacity=capacity,
                             games=[proposal.game], title=values.pop("title", "") or proposal.game.title,
                             now=now, **values)
    proposal.status = Proposal.Status.APPROVED
    proposal.session = session
    proposal.decided_by = by
    proposal.decided_at = now
    proposal.save()
    emails.queue_proposal("proposal_approved", proposal)
    # The proposer's party goes in directly (the host just said yes to them).
    Booking.objects.create(
        session=session, user=proposal.user, name=proposal.name, email=proposal.email, seats=proposal.seats,
        status=Booking.Status.CONFIRMED, language=proposal.language, note=proposal.message[:500], created_at=now,
    )
    booking = session.bookings.get(email=proposal.email)
    emails.queue("confirmed", booking)
    return session


@transaction.atomic
def decline_proposal(proposal_id: Any, by: Any, reason: str = "", now: datetime | None = None) -> Proposal:
    require_staff(by)
    proposal = _lock_proposal(proposal_id)
    proposal.status = Proposal.Status.DECLINED
    proposal.decided_by = by
    proposal.decided_at = now or timezone.now()
    proposal.reason = str(reason or "").strip()[:2000]
    proposal.save()
    emails.queue_proposal("proposal_declined", proposal)
    return proposal
