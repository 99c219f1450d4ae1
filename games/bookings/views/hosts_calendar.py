"""The hosts' calendar: a week or a month of sessions, with their bookings."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from games.bookings import clock
from games.bookings.models import Booking, Proposal, Session
from games.bookings.views.common import hosts_only
from ludo.params import query_date


def _day_start(day: date) -> datetime:
    return clock.to_utc(day, datetime.min.time(), timezone.get_default_timezone(), ambiguous="earlier")


@hosts_only
def calendar(request: HttpRequest) -> HttpResponse:
    """A week (Monday first) or a month of sessions, with their bookings."""
    view = "month" if request.GET.get("view") == "month" else "week"
    anchor = query_date(request, "date", default=timezone.localdate())  # 400 when not a date in range
    if view == "week":
        first = anchor - timedelta(days=anchor.weekday())
        last = first + timedelta(days=7)
        previous, following = first - timedelta(days=7), last
    else:
        month_start = anchor.replace(day=1)
        following = (month_start + timedelta(days=32)).replace(day=1)
        previous = (month_start - timedelta(days=1)).replace(day=1)
        first = month_start - timedelta(days=month_start.weekday())
        last = following + timedelta(days=(7 - following.weekday()) % 7)
    sessions = (Session.objects.between(_day_start(first), _day_start(last))
                .select_related("host").prefetch_related("games")
                .annotate(pending=Count("bookings", filter=Q(bookings__status=Booking.Status.PENDING)),
                          waiting=Count("bookings", filter=Q(bookings__status=Booking.Status.WAITING)))
                .order_by("starts_at"))
    by_day: dict[date, list[Session]] = {}
    for session in sessions:
        by_day.setdefault(timezone.localtime(session.starts_at).date(), []).append(session)
    days = [first + timedelta(days=i) for i in range((last - first).days)]
    weeks = [[(d, by_day.get(d, [])) for d in days[i:i + 7]] for i in range(0, len(days), 7)]
    return render(request, "bookings/staff/calendar.html", {
        "view": view, "weeks": weeks, "anchor": anchor, "previous": previous, "following": following,
        "month": anchor.replace(day=1), "today": timezone.localdate(),
        "proposals": Proposal.objects.filter(status=Proposal.Status.PENDING).count(),
    })
