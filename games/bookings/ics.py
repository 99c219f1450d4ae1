"""iCalendar files: the .ics attached to a booking's emails, and the feeds.

Times are written in UTC (``DTSTART:20261025T003000Z``): one instant, no
time-zone table to get wrong, and every calendar shows it in its reader's own
time zone. The wall-clock time at the house goes in the description as well.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from urllib.parse import urlsplit

import icalendar
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games.bookings import conf
from games.bookings.models import Booking, Session

PRODID = "-//Ludo//Sessions at the house//EN"


def _host() -> str:
    return urlsplit(conf.site_url()).hostname or "ludo.localhost"


def session_uid(session: Session) -> str:
    return f"session-{session.pk}@{_host()}"


def booking_uid(booking: Booking) -> str:
    return f"booking-{booking.pk}@{_host()}"


def wall_clock(session: Session) -> str:
    start = timezone.localtime(session.starts_at)
    end = timezone.localtime(session.ends_at)
    return f"{date_format(start, 'DATETIME_FORMAT')} – {date_format(end, 'DATETIME_FORMAT')} ({start.tzname()}/{end.tzname()}, Europe/Paris)"


def _event(session: Session, *, uid: str, summary: str, description: str, url: str = "",
           cancelled: bool = False, sequence: int = 0, now: datetime | None = None) -> icalendar.Event:
    event = icalendar.Event()
    event.add("uid", uid)
    event.add("dtstamp", (now or timezone.now()).astimezone(UTC))
    event.add("dtstart", session.starts_at.astimezone(UTC))
    event.add("dtend", session.ends_at.astimezone(UTC))
    event.add("summary", summary)
    location = "Ludo" + (f" — {session.room}" if session.room else "")
    event.add("location", location)
    event.add("description", description)
    event.add("sequence", sequence)
    event.add("status", "CANCELLED" if cancelled else "CONFIRMED")
    if url:
        event.add("url", url)
    return event


def _calendar(events: Iterable[icalendar.Event], name: str = "", method: str = "PUBLISH") -> bytes:
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", method)
    if name:
        cal.add("x-wr-calname", name)
    for event in events:
        cal.add_component(event)
    return cal.to_ical()


def booking_calendar(booking: Booking, manage_url: str, now: datetime | None = None) -> bytes:
    """The .ics attached to a booking's emails (in the current language)."""
    session = booking.session
    cancelled = booking.status not in Booking.HOLDING or session.status == Session.Status.CANCELLED
    lines = [
        wall_clock(session),
        _("Seats: %(seats)s") % {"seats": booking.seats},
        ", ".join(g.title for g in session.games.all()),
        _("View, change or cancel: %(url)s") % {"url": manage_url},
    ]
    event = _event(
        session, uid=booking_uid(booking), summary=session.title, description="\n".join(x for x in lines if x),
        url=manage_url, cancelled=cancelled, sequence=booking.changes + (1 if cancelled else 0), now=now,
    )
    return _calendar([event])


def public_feed(sessions: Iterable[Session], now: datetime | None = None) -> bytes:
    events = []
    for session in sessions:
        url = conf.site_url() + session.get_absolute_url()
        lines = [", ".join(g.title for g in session.games.all()), session.notes, url]
        events.append(_event(session, uid=session_uid(session), summary=session.title,
                             description="\n".join(x for x in lines if x), url=url,
                             cancelled=session.status == Session.Status.CANCELLED, now=now))
    return _calendar(events, name=_("Ludo: sessions at the house"))


def host_feed(sessions: Iterable[Session], host_name: str, now: datetime | None = None) -> bytes:
    """A host's sessions with who booked (private: the address is a secret)."""
    events = []
    for session in sessions:
        url = conf.site_url() + session.staff_url()
        people = [
            f"- {b.name} ×{b.seats} ({b.get_status_display()})"
            for b in session.bookings.all() if b.status in Booking.ACTIVE
        ]
        lines = [
            _("%(taken)s of %(capacity)s seats taken") % {"taken": session.seats_taken, "capacity": session.capacity},
            *people, session.notes, url,
        ]
        events.append(_event(session, uid=session_uid(session), summary=session.title,
                             description="\n".join(x for x in lines if x), url=url,
                             cancelled=session.status == Session.Status.CANCELLED, now=now))
    return _calendar(events, name=_("Ludo: %(host)s's sessions") % {"host": host_name})
