"""Booking actions: one function per action, each in one transaction.

Every action on a session's seats locks the session row first
(``select_for_update``; on SQLite the transaction starts with BEGIN IMMEDIATE
and writers take turns), then the booking rows it touches, always in that
order (``locks``). Free seats are counted from ``Session.seats_taken``, which
the database keeps equal to the seats held (see ``seatguard``), inside the
lock. Emails are outbox rows written in the same transaction and sent by the
worker (``emails.queue``, ``outbox``). Bad
input raises :class:`BookingError` and changes nothing.

Views, admin, commands and the worker's jobs all come through here, by the
names below (``services.book``, ``services.cancel``, ...). The modules:

    inputs.py        checking names, emails, party sizes, settings, wall-clock slots
    locks.py         the lock order (session, then bookings), free seats, the staff check
    sessions.py      a host's sessions and recurring rules
    booking.py       a guest's booking: book, change, cancel, accept an offer
    confirmation.py  visitors' bookings and proposals confirmed by email first (double opt-in)
    waiting_list.py  offering freed seats, offers that run out
    hosts.py         approve, decline, who came; a host's calendar feed
    reminders.py     the reminder the day before
    proposals.py     sessions proposed by guests
    copies.py        copies set aside for a session, off the shelf while it runs
    live_table.py    a live table for the people booked
"""

from games.bookings.services.booking import accept_offer, address_verified, book, can_see, cancel, change
from games.bookings.services.confirmation import (
    confirm_booking,
    confirm_proposal,
    lapse_unverified,
    request_booking,
    request_links,
    request_proposal,
)
from games.bookings.services.copies import release_copy, reserve_copy, sync_copies
from games.bookings.services.hosts import approve, decline, host_feed, mark_attendance, renew_host_feed
from games.bookings.services.inputs import (
    BOUNDS,
    LANGUAGES,
    MAX_SESSION_HOURS,
    SESSION_FIELDS,
    clean_email,
    clean_language,
    clean_name,
    clean_seats,
    local_span,
)
from games.bookings.services.live_table import open_live_table
from games.bookings.services.proposals import approve_proposal, decline_proposal, propose
from games.bookings.services.reminders import due_reminders, send_due_reminders
from games.bookings.services.sessions import (
    SeriesResult,
    cancel_session,
    create_series,
    create_session,
    update_session,
)
from games.bookings.services.waiting_list import expire_offer, expire_offers

__all__ = [
    "BOUNDS",
    "LANGUAGES",
    "MAX_SESSION_HOURS",
    "SESSION_FIELDS",
    "SeriesResult",
    "accept_offer",
    "address_verified",
    "approve",
    "approve_proposal",
    "book",
    "can_see",
    "cancel",
    "cancel_session",
    "change",
    "clean_email",
    "clean_language",
    "clean_name",
    "clean_seats",
    "confirm_booking",
    "confirm_proposal",
    "create_series",
    "create_session",
    "decline",
    "decline_proposal",
    "due_reminders",
    "expire_offer",
    "expire_offers",
    "host_feed",
    "lapse_unverified",
    "local_span",
    "mark_attendance",
    "open_live_table",
    "propose",
    "release_copy",
    "renew_host_feed",
    "request_booking",
    "request_links",
    "request_proposal",
    "reserve_copy",
    "send_due_reminders",
    "sync_copies",
    "update_session",
]
