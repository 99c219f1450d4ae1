"""A host's sessions: create one, edit it, cancel it, and recurring rules
(one bookable session per date, the clock-change nights reported)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.bookings import clock, emails
from games.bookings.errors import BookingError
from games.bookings.models import Booking, Session, SessionSeries
from games.bookings.services.inputs import check_times, session_settings
from games.bookings.services.locks import lock_session, require_staff
from games.bookings.services.waiting_list import offer_freed_seats


@transaction.atomic
def create_session(by: Any, *, starts_at: datetime, ends_at: datetime, capacity: int, title: str = "",
                   games: Iterable[Any] = (), series: SessionSeries | None = None,
                   now: datetime | None = None, **values: Any) -> Session:
    """A host schedules a session (times are instants: see :func:`local_span`)."""
    require_staff(by)
    check_times(starts_at, ends_at)
    if ends_at <= (now or timezone.now()):
        raise BookingError("in_the_past")
    games = list(games)
    values = session_settings({"capacity": capacity, "title": title, **values})
    if not values["title"]:
        values["title"] = ", ".join(g.title for g in games)[:200] or str(_("Games evening"))
    values.setdefault("host", by)
    session = Session(starts_at=starts_at, ends_at=ends_at, created_by=by, series=series, **values)
    session.save()
    if games:
        session.games.set(games)
    return session


@transaction.atomic
def update_session(session_id: Any, by: Any, *, games: Iterable[Any] | None = None,
                   starts_at: datetime | None = None, ends_at: datetime | None = None,
                   now: datetime | None = None, **values: Any) -> Session:
    """A host edits a session. The capacity cannot drop below the seats
    booked; a larger one offers the new seats to the waiting list. The times
    move only while nobody has booked."""
    require_staff(by)
    now = now or timezone.now()
    session = lock_session(session_id)
    values = session_settings(values)
    if "capacity" in values and values["capacity"] < session.seats_taken:
        raise BookingError("capacity_below_booked", taken=session.seats_taken)
    if starts_at is not None or ends_at is not None:
        new_start, new_end = starts_at or session.starts_at, ends_at or session.ends_at
        if (new_start, new_end) != (session.starts_at, session.ends_at):
            if session.bookings.filter(status__in=Booking.ACTIVE).exists():
                raise BookingError("times_locked")
            check_times(new_start, new_end)
            session.starts_at, session.ends_at = new_start, new_end
    for name, value in values.items():
        setattr(session, name, value)
    session.save()
    if games is not None:
        session.games.set(list(games))
    offer_freed_seats(session, now)
    return session


@transaction.atomic
def cancel_session(session_id: Any, by: Any, reason: str = "", now: datetime | None = None) -> Session:
    """A host cancels a session: every live booking is cancelled and told."""
    require_staff(by)
    now = now or timezone.now()
    session = lock_session(session_id)
    if session.status == Session.Status.CANCELLED:
        raise BookingError("session_cancelled")
    session.status = Session.Status.CANCELLED
    session.save()
    reason = str(reason or "").strip()[:500]
    for booking in session.bookings.select_for_update().filter(status__in=Booking.ACTIVE):
        booking.status = Booking.Status.CANCELLED
        booking.cancelled_at = now
        booking.offer_expires_at = None
        booking.save()
        emails.queue("session_cancelled", booking, reason=reason)
    return session


@dataclass
class SeriesResult:
    series: SessionSeries
    sessions: list[Session] = field(default_factory=list)
    skipped: list[clock.Occurrence] = field(default_factory=list)
    resolved: list[clock.Occurrence] = field(default_factory=list)  # the October nights


@transaction.atomic
def create_series(by: Any, *, title: str, first_date: date, start_time: time, end_time: time,
                  until: date | None = None, count: int | None = None, ambiguous: str = "earlier",
                  capacity: int, games: Iterable[Any] = (), now: datetime | None = None,
                  **values: Any) -> SeriesResult:
    """A recurring rule and its sessions, each bookable on its own.

    Dates whose wall-clock time does not exist are skipped, and the October
    night takes the ``ambiguous`` 02:xx; both are reported (``result.skipped``,
    ``result.resolved``, and ``series.report`` for the hosts' pages). Dates
    already past are left out.
    """
    require_staff(by)
    now = now or timezone.now()
    games = list(games)
    if ambiguous not in SessionSeries.Ambiguous.values:
        raise BookingError("bad_rule", problem="ambiguous")
    try:
        occurrences = clock.weekly(first_date, start_time, end_time, until=until, count=count,
                                   tz=timezone.get_default_timezone(), ambiguous=ambiguous)  # type: ignore[arg-type]
    except ValueError as exc:
        raise BookingError("bad_rule", problem=str(exc)) from None
    checked = session_settings({"capacity": capacity, "title": title, **values})
    series = SessionSeries.objects.create(
        title=checked["title"] or ", ".join(g.title for g in games)[:200] or _("Games evening"),
        first_date=first_date, start_time=start_time, end_time=end_time, until=until, count=count,
        ambiguous=ambiguous, created_by=by,
        template={k: (v.pk if k == "host" else v) for k, v in checked.items()},
    )
    result = SeriesResult(series)
    report = []
    for occ in occurrences:
        if occ.skipped:
            result.skipped.append(occ)
        else:
            if occ.ends_at <= now:
                continue
            if occ.problem:
                result.resolved.append(occ)
            result.sessions.append(create_session(
                by, starts_at=occ.starts_at, ends_at=occ.ends_at, games=games, series=series, now=now,
                **{**checked, "title": series.title},
            ))
        if occ.problem:
            report.append({"day": occ.day.isoformat(), "problem": occ.problem, "resolution": occ.resolution})
    series.report = report
    series.save(update_fields=["report"])
    return result
