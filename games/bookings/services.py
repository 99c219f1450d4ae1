"""Booking actions: one function per action, each in one transaction.

Every action on a session's seats locks the session row first
(``select_for_update``; on SQLite the transaction starts with BEGIN IMMEDIATE
and writers take turns), then the booking rows it touches, always in that
order. Free seats are counted from ``Session.seats_taken``, which the
database keeps equal to the seats held (see ``seatguard``), inside the lock.
Emails leave only after the transaction commits (``emails.queue``). Bad input
raises :class:`BookingError` and changes nothing.

Views, admin, commands and the worker's jobs all come through here.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.bookings import clock, emails
from games.bookings.conf import attendance_opens
from games.bookings.errors import BookingError
from games.bookings.models import (
    MAX_CAPACITY,
    Booking,
    CopyReservation,
    HostFeed,
    Proposal,
    Session,
    SessionSeries,
)

log = logging.getLogger(__name__)

LANGUAGES = ("fr", "en")
MAX_SESSION_HOURS = 24
# What a host may set on a session, with the bounds a form would check.
SESSION_FIELDS = {
    "title", "room", "capacity", "notes", "visibility", "requires_approval", "waiting_list_size",
    "offer_minutes", "cancel_notice_hours", "max_changes", "host",
}
BOUNDS = {
    "waiting_list_size": (0, 500),
    "offer_minutes": (5, 14 * 24 * 60),
    "cancel_notice_hours": (0, 14 * 24),
    "max_changes": (0, 50),
}


# -- checking input ------------------------------------------------------------------------------

def clean_name(raw: Any) -> str:
    name = " ".join(str(raw or "").split())
    if not 2 <= len(name) <= 100 or not name.isprintable():
        raise BookingError("bad_name")
    return name


def clean_email(raw: Any) -> str:
    email = str(raw or "").strip().lower()
    try:
        validate_email(email)
    except ValidationError:
        raise BookingError("bad_email") from None
    if len(email) > 254:
        raise BookingError("bad_email")
    return email


def clean_seats(raw: Any) -> int:
    if isinstance(raw, bool):
        raise BookingError("bad_seats", max=MAX_CAPACITY)
    try:
        seats = int(raw)
    except (TypeError, ValueError):
        raise BookingError("bad_seats", max=MAX_CAPACITY) from None
    if not 1 <= seats <= MAX_CAPACITY:
        raise BookingError("bad_seats", max=MAX_CAPACITY)
    return seats


def clean_language(raw: Any) -> str:
    language = str(raw or "fr")[:2].lower()
    if language not in LANGUAGES:
        raise BookingError("bad_language")
    return language


def _clean_capacity(raw: Any) -> int:
    try:
        capacity = int(raw)
    except (TypeError, ValueError):
        raise BookingError("bad_capacity", max=MAX_CAPACITY) from None
    if isinstance(raw, bool) or not 1 <= capacity <= MAX_CAPACITY:
        raise BookingError("bad_capacity", max=MAX_CAPACITY)
    return capacity


def _check_times(starts_at: datetime, ends_at: datetime) -> None:
    if starts_at.tzinfo is None or ends_at.tzinfo is None:
        raise ValueError("session times must be aware datetimes")
    if not starts_at < ends_at <= starts_at + timedelta(hours=MAX_SESSION_HOURS):
        raise BookingError("bad_times")


def local_span(day: date, start: time, end: time, ambiguous: str = "raise") -> tuple[datetime, datetime]:
    """UTC instants of a wall-clock slot at the house, with the clock-change
    nights refused (or resolved as asked) in words people understand."""
    try:
        return clock.span(day, start, end, timezone.get_default_timezone(), ambiguous)  # type: ignore[arg-type]
    except clock.NonExistentTime as exc:
        raise BookingError("time_missing", day=exc.day.isoformat(), time=exc.at.strftime("%H:%M")) from None
    except clock.AmbiguousTime as exc:
        raise BookingError("time_twice", day=exc.day.isoformat(), time=exc.at.strftime("%H:%M")) from None


def _settings(values: dict[str, Any]) -> dict[str, Any]:
    """Check a host's session settings; unknown names are a programming error."""
    unknown = set(values) - SESSION_FIELDS
    if unknown:
        raise TypeError(f"unknown session fields: {sorted(unknown)}")
    out = dict(values)
    if "capacity" in out:
        out["capacity"] = _clean_capacity(out["capacity"])
    if "title" in out:
        out["title"] = " ".join(str(out["title"] or "").split())[:200]
    if "visibility" in out and out["visibility"] not in Session.Visibility.values:
        raise BookingError("bad_value", field="visibility", problem=out["visibility"])
    for name, (low, high) in BOUNDS.items():
        if name in out:
            value = out[name]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise BookingError("bad_value", field=name, problem=f"{low}–{high}")
    host = out.get("host")
    if host is not None and not host.is_staff:
        raise BookingError("staff_only")
    return out


# -- locking -------------------------------------------------------------------------------------

def _lock_session(session_id: Any) -> Session:
    try:
        return Session.objects.select_for_update().get(pk=int(session_id))
    except (Session.DoesNotExist, TypeError, ValueError):
        raise BookingError("no_session") from None


def _lock_booking(booking_id: Any) -> tuple[Session, Booking]:
    """Lock a booking's session, then the booking (the one lock order everywhere)."""
    try:
        session_id = Booking.objects.values_list("session_id", flat=True).get(pk=int(booking_id))
    except (Booking.DoesNotExist, TypeError, ValueError):
        raise BookingError("no_booking") from None
    session = _lock_session(session_id)
    booking = Booking.objects.select_for_update().get(pk=int(booking_id))
    booking.session = session
    return session, booking


def _free(session: Session) -> int:
    """Free seats now, read inside the lock (the triggers moved the counter)."""
    session.refresh_from_db(fields=["seats_taken", "capacity"])
    return session.capacity - session.seats_taken


def _require_staff(user: Any) -> None:
    if user is None or not getattr(user, "is_staff", False):
        raise BookingError("staff_only")


# -- sessions ------------------------------------------------------------------------------------

@transaction.atomic
def create_session(by: Any, *, starts_at: datetime, ends_at: datetime, capacity: int, title: str = "",
                   games: Iterable[Any] = (), series: SessionSeries | None = None,
                   now: datetime | None = None, **values: Any) -> Session:
    """A host schedules a session (times are instants: see :func:`local_span`)."""
    _require_staff(by)
    _check_times(starts_at, ends_at)
    if ends_at <= (now or timezone.now()):
        raise BookingError("in_the_past")
    games = list(games)
    values = _settings({"capacity": capacity, "title": title, **values})
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
    _require_staff(by)
    now = now or timezone.now()
    session = _lock_session(session_id)
    values = _settings(values)
    if "capacity" in values and values["capacity"] < session.seats_taken:
        raise BookingError("capacity_below_booked", taken=session.seats_taken)
    if starts_at is not None or ends_at is not None:
        new_start, new_end = starts_at or session.starts_at, ends_at or session.ends_at
        if (new_start, new_end) != (session.starts_at, session.ends_at):
            if session.bookings.filter(status__in=Booking.ACTIVE).exists():
                raise BookingError("times_locked")
            _check_times(new_start, new_end)
            session.starts_at, session.ends_at = new_start, new_end
    for name, value in values.items():
        setattr(session, name, value)
    session.save()
    if games is not None:
        session.games.set(list(games))
    _offer_freed_seats(session, now)
    return session


@transaction.atomic
def cancel_session(session_id: Any, by: Any, reason: str = "", now: datetime | None = None) -> Session:
    """A host cancels a session: every live booking is cancelled and told."""
    _require_staff(by)
    now = now or timezone.now()
    session = _lock_session(session_id)
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
        emails.queue("session_cancelled", booking.pk, reason=reason)
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
    _require_staff(by)
    now = now or timezone.now()
    games = list(games)
    if ambiguous not in SessionSeries.Ambiguous.values:
        raise BookingError("bad_rule", problem="ambiguous")
    try:
        occurrences = clock.weekly(first_date, start_time, end_time, until=until, count=count,
                                   tz=timezone.get_default_timezone(), ambiguous=ambiguous)  # type: ignore[arg-type]
    except ValueError as exc:
        raise BookingError("bad_rule", problem=str(exc)) from None
    checked = _settings({"capacity": capacity, "title": title, **values})
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


# -- booking -------------------------------------------------------------------------------------

def _can_see(session: Session, invite: str | None, user: Any = None) -> bool:
    import hmac

    if session.visibility == Session.Visibility.PUBLIC:
        return True
    if user is not None and getattr(user, "is_staff", False):
        return True
    return bool(invite) and hmac.compare_digest(str(invite), session.invite_key)


@transaction.atomic
def book(session_id: Any, *, name: Any, email: Any, seats: Any, user: Any = None, language: Any = "fr",
         note: Any = "", invite: str | None = None, now: datetime | None = None) -> Booking:
    """Book seats for a party. Confirmed (or awaiting approval) when the seats
    are free; on the waiting list when they are not and the list has room;
    refused otherwise."""
    now = now or timezone.now()
    name, email, seats = clean_name(name), clean_email(email), clean_seats(seats)
    language = clean_language(language)
    note = " ".join(str(note or "").split())[:500]
    session = _lock_session(session_id)
    if not _can_see(session, invite, user):
        raise BookingError("invitation_only")
    if session.status != Session.Status.SCHEDULED:
        raise BookingError("session_cancelled")
    if now >= session.starts_at:
        raise BookingError("session_started")
    if seats > session.capacity:
        raise BookingError("party_too_large", capacity=session.capacity)
    if session.bookings.filter(email=email, status__in=Booking.ACTIVE).exists():
        raise BookingError("already_booked")
    if seats <= _free(session):
        status = Booking.Status.PENDING if session.requires_approval else Booking.Status.CONFIRMED
    elif session.waiting_list_size == 0:
        raise BookingError("full_no_waiting_list")
    elif session.bookings.filter(status=Booking.Status.WAITING).count() < session.waiting_list_size:
        status = Booking.Status.WAITING
    else:
        raise BookingError("full")
    try:
        with transaction.atomic():
            booking = Booking.objects.create(
                session=session, user=user if getattr(user, "is_authenticated", False) else None,
                name=name, email=email, seats=seats, status=status, language=language, note=note, created_at=now,
            )
    except IntegrityError:
        # Only reachable if something bypassed the lock; the database held the line.
        log.warning("booking refused by the database for session %s", session.pk)
        raise BookingError("full") from None
    emails.queue({"confirmed": "confirmed", "pending": "received", "waiting": "waiting"}[status], booking.pk)
    return booking


@transaction.atomic
def cancel(booking_id: Any, *, counter: int | None = None, by_staff: Any = None,
           now: datetime | None = None) -> Booking:
    """Cancel a booking (or leave the waiting list, or decline a seat offer).

    Guests (through their link: ``counter`` is the link's change count) cannot
    cancel held seats after the session's minimum notice; hosts can.
    """
    now = now or timezone.now()
    if by_staff is not None:
        _require_staff(by_staff)
    session, booking = _lock_booking(booking_id)
    _check_counter(booking, counter)
    if booking.status not in Booking.ACTIVE:
        raise BookingError("not_active")
    late = now > session.cancel_deadline()
    if by_staff is None and late and booking.status in (Booking.Status.CONFIRMED, Booking.Status.PENDING):
        raise BookingError("too_late_to_cancel", hours=session.cancel_notice_hours)
    held = booking.holds_seats
    booking.status = Booking.Status.CANCELLED
    booking.cancelled_at = now
    booking.offer_expires_at = None
    booking.save()
    emails.queue("cancelled", booking.pk, by_staff=by_staff is not None)
    if held:
        _offer_freed_seats(session, now)
    return booking


def _check_counter(booking: Booking, counter: int | None) -> None:
    if counter is not None and counter != booking.changes:
        raise BookingError("stale_link")


@transaction.atomic
def change(booking_id: Any, *, counter: int, seats: Any = None, name: Any = None,
           now: datetime | None = None) -> Booking:
    """Change the party size or the name, through the emailed link.

    At most ``session.max_changes`` changes, none after the minimum notice.
    Each change bumps the booking's counter, which retires every older link.
    More seats need free seats now (no queue-jumping through a change).
    """
    now = now or timezone.now()
    session, booking = _lock_booking(booking_id)
    _check_counter(booking, counter)
    if booking.status not in (Booking.Status.PENDING, Booking.Status.CONFIRMED, Booking.Status.WAITING):
        raise BookingError("cannot_change")
    if booking.changes >= session.max_changes:
        raise BookingError("no_changes_left", max=session.max_changes)
    if now > session.cancel_deadline():
        raise BookingError("too_late_to_change", hours=session.cancel_notice_hours)
    new_seats = booking.seats if seats is None else clean_seats(seats)
    new_name = booking.name if name is None else clean_name(name)
    if (new_seats, new_name) == (booking.seats, booking.name):
        raise BookingError("nothing_changed")
    if new_seats > session.capacity:
        raise BookingError("party_too_large", capacity=session.capacity)
    more = new_seats - booking.seats
    if booking.holds_seats and more > 0:
        free = _free(session)
        if more > free:
            raise BookingError("not_enough_seats", free=max(0, free))
    booking.seats, booking.name = new_seats, new_name
    booking.changes += 1
    booking.save()
    emails.queue("changed", booking.pk)
    _offer_freed_seats(session, now)
    return booking


@transaction.atomic
def accept_offer(booking_id: Any, *, counter: int | None = None, now: datetime | None = None) -> Booking:
    """Take the seat offered from the waiting list, before the offer runs out."""
    now = now or timezone.now()
    session, booking = _lock_booking(booking_id)
    _check_counter(booking, counter)
    if booking.status != Booking.Status.OFFERED:
        raise BookingError("no_offer")
    if now >= booking.offer_expires_at:
        raise BookingError("offer_expired")
    booking.status = Booking.Status.PENDING if session.requires_approval else Booking.Status.CONFIRMED
    booking.offer_expires_at = None
    booking.save()
    emails.queue("confirmed" if booking.status == Booking.Status.CONFIRMED else "received", booking.pk)
    return booking


def _offer_freed_seats(session: Session, now: datetime) -> list[Booking]:
    """Offer free seats to the waiting list, first in line first; a party
    too large for what is free keeps its place and the next one that fits
    gets the offer. Called under the session lock."""
    if session.status != Session.Status.SCHEDULED or now >= session.starts_at:
        return []
    free = _free(session)
    offered = []
    if free <= 0:
        return offered
    queue = session.bookings.select_for_update().filter(status=Booking.Status.WAITING).order_by("created_at", "id")
    expires = min(now + timedelta(minutes=session.offer_minutes), session.starts_at)
    for waiting in queue:
        if waiting.seats > free:
            continue
        waiting.status = Booking.Status.OFFERED
        waiting.offer_expires_at = expires
        waiting.save()
        emails.queue("offer", waiting.pk)
        offered.append(waiting)
        free -= waiting.seats
        if free <= 0:
            break
    return offered


@transaction.atomic
def expire_offer(booking_id: Any, now: datetime | None = None) -> bool:
    """Withdraw a seat offer whose time ran out, and offer the seats on.
    False when there was nothing to do (accepted meanwhile, or not yet due)."""
    now = now or timezone.now()
    session, booking = _lock_booking(booking_id)
    if booking.status != Booking.Status.OFFERED or booking.offer_expires_at > now:
        return False
    booking.status = Booking.Status.EXPIRED
    booking.offer_expires_at = None
    booking.save()
    emails.queue("offer_expired", booking.pk)
    _offer_freed_seats(session, now)
    return True


def expire_offers(now: datetime | None = None, limit: int = 50) -> int:
    """Expire every offer that is due (the worker calls this)."""
    now = now or timezone.now()
    due = list(Booking.objects.filter(status=Booking.Status.OFFERED, offer_expires_at__lte=now)
               .order_by("offer_expires_at").values_list("id", flat=True)[:limit])
    return sum(1 for pk in due if expire_offer(pk, now))


# -- the hosts' side -------------------------------------------------------------------------------

@transaction.atomic
def approve(booking_id: Any, by: Any, now: datetime | None = None) -> Booking:
    _require_staff(by)
    session, booking = _lock_booking(booking_id)
    if booking.status != Booking.Status.PENDING:
        raise BookingError("not_pending")
    booking.status = Booking.Status.CONFIRMED
    booking.save()
    emails.queue("confirmed", booking.pk)
    return booking


@transaction.atomic
def decline(booking_id: Any, by: Any, reason: str = "", now: datetime | None = None) -> Booking:
    """A host declines a booking awaiting approval (its seats go to the waiting list)."""
    _require_staff(by)
    now = now or timezone.now()
    session, booking = _lock_booking(booking_id)
    if booking.status != Booking.Status.PENDING:
        raise BookingError("not_pending")
    booking.status = Booking.Status.DECLINED
    booking.save()
    emails.queue("declined", booking.pk, reason=str(reason or "").strip()[:500])
    _offer_freed_seats(session, now)
    return booking


@transaction.atomic
def mark_attendance(booking_id: Any, by: Any, attended: bool | None, now: datetime | None = None) -> Booking:
    """Who came (True), who did not (False), or not known (None)."""
    _require_staff(by)
    now = now or timezone.now()
    session, booking = _lock_booking(booking_id)
    if booking.status != Booking.Status.CONFIRMED:
        raise BookingError("not_confirmed")
    if now < session.starts_at - attendance_opens():
        raise BookingError("too_early_to_mark")
    if attended not in (True, False, None):
        raise BookingError("bad_value", field="attended", problem=repr(attended))
    booking.attended = attended
    booking.save(update_fields=["attended", "updated_at"])
    return booking


def host_feed(user: Any) -> HostFeed:
    _require_staff(user)
    feed, _created = HostFeed.objects.get_or_create(user=user)
    return feed


@transaction.atomic
def renew_host_feed(user: Any) -> HostFeed:
    """A new secret address for a host's feed; the old one stops working."""
    from games.bookings.models import new_key

    feed = host_feed(user)
    feed.key = new_key()
    feed.save()
    return feed


# -- reminders -------------------------------------------------------------------------------------

def due_reminders(now: datetime | None = None):
    """Confirmed bookings whose reminder is due and still makes sense: its
    time (the day before) has come, the session has not started, and the
    booking was made before that time (a later booking got its confirmation
    minutes ago: no reminder)."""
    from django.db.models import F

    now = now or timezone.now()
    return Booking.objects.filter(
        status=Booking.Status.CONFIRMED, reminder_sent_at__isnull=True,
        session__status=Session.Status.SCHEDULED, session__remind_at__lte=now, session__starts_at__gt=now,
        created_at__lt=F("session__remind_at"),
    )


@transaction.atomic
def send_due_reminders(now: datetime | None = None, limit: int = 100) -> int:
    """Mark due reminders sent and send them after commit. Rows are claimed
    with SKIP LOCKED where the database has it, so two workers never send
    the same reminder."""
    from django.db import connection

    now = now or timezone.now()
    rows = due_reminders(now).order_by("session__starts_at", "id")
    if connection.features.has_select_for_update_skip_locked:
        rows = rows.select_for_update(skip_locked=True, of=("self",))
    ids = list(rows.values_list("id", flat=True)[:limit])
    Booking.objects.filter(pk__in=ids, reminder_sent_at__isnull=True).update(reminder_sent_at=now)
    for pk in ids:
        emails.queue("reminder", pk)
    return len(ids)


# -- proposals -------------------------------------------------------------------------------------

@transaction.atomic
def propose(*, game: Any, starts_at: datetime, ends_at: datetime, seats: Any, name: Any, email: Any,
            user: Any = None, language: Any = "fr", message: Any = "", now: datetime | None = None) -> Proposal:
    """A guest proposes a session around a game; the hosts decide."""
    now = now or timezone.now()
    if game is None:
        raise BookingError("bad_value", field="game", problem="?")
    _check_times(starts_at, ends_at)
    if starts_at <= now:
        raise BookingError("in_the_past")
    proposal = Proposal.objects.create(
        game=game, starts_at=starts_at, ends_at=ends_at, seats=clean_seats(seats), name=clean_name(name),
        email=clean_email(email), user=user if getattr(user, "is_authenticated", False) else None,
        language=clean_language(language), message=str(message or "").strip()[:2000],
    )
    emails.queue_proposal("proposal_received", proposal.pk)
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
    _require_staff(by)
    now = now or timezone.now()
    proposal = _lock_proposal(proposal_id)
    if _clean_capacity(capacity) < proposal.seats:
        raise BookingError("capacity_below_party", seats=proposal.seats)
    session = create_session(by, starts_at=proposal.starts_at, ends_at=proposal.ends_at, capacity=capacity,
                             games=[proposal.game], title=values.pop("title", "") or proposal.game.title,
                             now=now, **values)
    proposal.status = Proposal.Status.APPROVED
    proposal.session = session
    proposal.decided_by = by
    proposal.decided_at = now
    proposal.save()
    emails.queue_proposal("proposal_approved", proposal.pk)
    # The proposer's party goes in directly (the host just said yes to them).
    Booking.objects.create(
        session=session, user=proposal.user, name=proposal.name, email=proposal.email, seats=proposal.seats,
        status=Booking.Status.CONFIRMED, language=proposal.language, note=proposal.message[:500], created_at=now,
    )
    booking = session.bookings.get(email=proposal.email)
    emails.queue("confirmed", booking.pk)
    return session


@transaction.atomic
def decline_proposal(proposal_id: Any, by: Any, reason: str = "", now: datetime | None = None) -> Proposal:
    _require_staff(by)
    proposal = _lock_proposal(proposal_id)
    proposal.status = Proposal.Status.DECLINED
    proposal.decided_by = by
    proposal.decided_at = now or timezone.now()
    proposal.reason = str(reason or "").strip()[:2000]
    proposal.save()
    emails.queue_proposal("proposal_declined", proposal.pk)
    return proposal


# -- copies of the game ---------------------------------------------------------------------------

@transaction.atomic
def reserve_copy(session_id: Any, copy_id: Any, by: Any, now: datetime | None = None) -> CopyReservation:
    """Set a copy aside for a session. Refused for a copy of a game not on
    offer, a copy lent out or in quarantine, or one already reserved for an
    overlapping session."""
    from catalog.models import Copy

    _require_staff(by)
    session = _lock_session(session_id)
    if session.status != Session.Status.SCHEDULED:
        raise BookingError("session_cancelled")
    try:
        copy = Copy.objects.select_for_update().select_related("game").get(pk=int(copy_id))
    except (Copy.DoesNotExist, TypeError, ValueError):
        raise BookingError("no_copy") from None
    game_ids = set(session.games.values_list("id", flat=True))
    if copy.game_id not in game_ids:
        raise BookingError("copy_wrong_game")
    if copy.status in (Copy.Status.LENT, Copy.Status.QUARANTINE):
        raise BookingError("copy_unavailable", status=copy.get_status_display())
    if session.copy_reservations.filter(copy=copy).exists():
        raise BookingError("copy_already_reserved")
    clash = (CopyReservation.objects.filter(copy=copy, session__status=Session.Status.SCHEDULED)
             .filter(session__starts_at__lt=session.ends_at, session__ends_at__gt=session.starts_at)
             .select_related("session").first())
    if clash is not None:
        raise BookingError("copy_taken", other=str(clash.session))
    return CopyReservation.objects.create(session=session, copy=copy, created_by=by)


@transaction.atomic
def release_copy(reservation_id: Any, by: Any, now: datetime | None = None) -> None:
    """Give up a reservation; a copy the worker took off the shelf goes back."""
    _require_staff(by)
    try:
        reservation = CopyReservation.objects.select_for_update().get(pk=int(reservation_id))
    except (CopyReservation.DoesNotExist, TypeError, ValueError):
        raise BookingError("no_reservation") from None
    _put_back(reservation, now or timezone.now())
    reservation.delete()


def _put_back(reservation: CopyReservation, now: datetime) -> None:
    from catalog import services as catalog
    from catalog.models import Copy

    if reservation.taken_at is None or reservation.returned_at is not None:
        return
    copy = Copy.objects.select_for_update().get(pk=reservation.copy_id)
    if copy.status == Copy.Status.IN_USE:
        catalog.set_copy_status(copy, Copy.Status.AVAILABLE)
    reservation.returned_at = now
    reservation.save(update_fields=["returned_at"])


@transaction.atomic
def sync_copies(now: datetime | None = None) -> int:
    """Copies reserved for a session that is running leave the shelf ("in
    use"); once it is over (or cancelled) they go back. Only a copy that was
    on the shelf is taken, and only one still "in use" is put back: a copy a
    host lent or quarantined meanwhile keeps the status the host gave it."""
    from catalog import services as catalog
    from catalog.models import Copy

    now = now or timezone.now()
    moved = 0
    running = CopyReservation.objects.filter(
        taken_at__isnull=True, session__status=Session.Status.SCHEDULED,
        session__starts_at__lte=now, session__ends_at__gt=now,
    )
    for reservation in running.select_related("copy")[:50]:
        copy = Copy.objects.select_for_update().get(pk=reservation.copy_id)
        if copy.status == Copy.Status.AVAILABLE:
            catalog.set_copy_status(copy, Copy.Status.IN_USE)
            reservation.taken_at = now
            reservation.save(update_fields=["taken_at"])
            moved += 1
    finished = CopyReservation.objects.filter(taken_at__isnull=False, returned_at__isnull=True).filter(
        Q(session__ends_at__lte=now) | Q(session__status=Session.Status.CANCELLED)
    )
    for reservation in finished[:50]:
        _put_back(reservation, now)
        moved += 1
    return moved


# -- a live table for the people booked -----------------------------------------------------------

@transaction.atomic
def open_live_table(session_id: Any, by: Any, game_slug: str | None = None):
    """Open a private live table of the session's playable game, with as
    many seats as people booked (within the game's limits); the people
    booked find its invitation link on their booking page."""
    from games import engines
    from games import services as tables
    from games.protocol import TableError

    _require_staff(by)
    session = _lock_session(session_id)
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
        emails.queue("table_open", booking.pk)
    return table
