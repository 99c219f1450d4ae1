"""Signed links for people without an account.

Each purpose has its own salt, so a token made for one purpose is worthless
for another. A token carries what it is about, the moment it was issued (so
it can expire: ``conf.link_max_age()``), and for a booking the number of
changes the booking had then: once a change is made, the older links stop
working for anything, so a change link cannot be replayed past the cap.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from django.core import signing
from django.utils import timezone

from games.bookings import conf
from games.bookings.errors import BookingError

MANAGE_SALT = "ludo.bookings.manage"
PROPOSAL_SALT = "ludo.bookings.proposal"
CONFIRM_SALT = "ludo.bookings.confirm"
CONFIRM_PROPOSAL_SALT = "ludo.bookings.confirm-proposal"


@dataclass(frozen=True)
class Link:
    pk: int
    counter: int
    issued_at: datetime


def _make(salt: str, pk: int, counter: int, now: datetime | None) -> str:
    issued = int((now or timezone.now()).timestamp())
    return signing.Signer(salt=salt).sign_object({"id": pk, "n": counter, "t": issued}, compress=True)


def _read(salt: str, token: str, now: datetime | None) -> Link:
    if not isinstance(token, str) or not token or len(token) > 500:
        raise BookingError("bad_link")
    try:
        data = signing.Signer(salt=salt).unsign_object(token)
    except (signing.BadSignature, ValueError, UnicodeDecodeError):
        raise BookingError("bad_link") from None
    try:
        pk, counter, issued = int(data["id"]), int(data["n"]), int(data["t"])
    except (KeyError, TypeError, ValueError):
        raise BookingError("bad_link") from None
    issued_at = datetime.fromtimestamp(issued, tz=UTC)
    age = (now or timezone.now()) - issued_at
    if age > conf.link_max_age():
        raise BookingError("expired_link")
    return Link(pk, counter, issued_at)


def manage_token(booking, now: datetime | None = None) -> str:
    """The link to view, change or cancel a booking (and accept a seat offer)."""
    return _make(MANAGE_SALT, booking.pk, booking.changes, now)


def read_manage_token(token: str, now: datetime | None = None) -> Link:
    return _read(MANAGE_SALT, token, now)


def proposal_token(proposal, now: datetime | None = None) -> str:
    """The link to follow (or withdraw) a session proposal."""
    return _make(PROPOSAL_SALT, proposal.pk, 0, now)


def read_proposal_token(token: str, now: datetime | None = None) -> Link:
    return _read(PROPOSAL_SALT, token, now)


def confirm_token(booking, now: datetime | None = None) -> str:
    """The link that confirms an unverified booking (it works until the booking's deadline)."""
    return _make(CONFIRM_SALT, booking.pk, 0, now)


def read_confirm_token(token: str, now: datetime | None = None) -> Link:
    return _read(CONFIRM_SALT, token, now)


def confirm_proposal_token(proposal, now: datetime | None = None) -> str:
    """The link that confirms an unverified proposal."""
    return _make(CONFIRM_PROPOSAL_SALT, proposal.pk, 0, now)


def read_confirm_proposal_token(token: str, now: datetime | None = None) -> Link:
    return _read(CONFIRM_PROPOSAL_SALT, token, now)
