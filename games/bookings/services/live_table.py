"""A private live table of the session's game for the people booked."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.bookings import emails
from games.bookings.errors import BookingError
from games.bookings.models import Booking, Session
from games.bookings.services.locks import lock_session, require_staff


@transaction.atomic
def open_live_table(session_id: Any, by: Any, game_slug: str | None = None):
    """Open a private live table of the session's playable game, with as
    many seats as people booked (within the game's limits); the people
    booked find its invitation link on their booking page."""
    # Imported here: the live tables' stack loads only when a host opens a table.
    from games import engines
    from games import services as tables
    from games.protocol import TableError

    require_staff(by)
    session = lock_session(session_id)
    if session.status != Session.Status.SCHEDULED:
        raise BookingError("session_cancelled")
    if session.table_id is not None:
        raise BookingError("table_exists")
    playable = [g for g in session.games.all() if g.engine_slug and g.engine_slug in engines.slugs()]
    if game_slug:
        playable = [g for g in playable if g.engine_slug == game_slug]
    if not playable:
        raise BookingError("not_playable")
    people = sum(session.bookings.filter(status=Booking.Status.CONFIRMED).values_list("seats", flat=True))
    if people == 0:
        raise BookingError("no_one_booked")
    rules = engines.get(playable[0].engine_slug)
    seats = max(rules.min_players, min(rules.max_players, people))
    who = tables.Who(user_id=by.pk, name=by.get_username(), is_staff=True)
    try:
        table = tables.create_table(who, rules.slug, seats, private=True, sit=False)
    except TableError as exc:
        raise BookingError("table_failed", reason=exc.code) from None
    session.table = table
    session.save(update_fields=["table", "updated_at"])
    for booking in session.bookings.filter(status=Booking.Status.CONFIRMED):
        emails.queue("table_open", booking)
    return table
