"""The hosts' forms for a new session and for a recurring rule."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games.bookings import forms, services
from games.bookings.errors import BookingError
from games.bookings.views.common import hosts_only


@hosts_only
def new_session(request: HttpRequest) -> HttpResponse:
    form = forms.SessionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            starts_at, ends_at = services.local_span(data["day"], data["start"], data["end"], data["ambiguous"])
            session = services.create_session(request.user, starts_at=starts_at, ends_at=ends_at,
                                              games=data["games"], **form.service_values())
        except BookingError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Session created."))
            return redirect(session.staff_url())
    return render(request, "bookings/staff/new_session.html", {"form": form}, status=400 if form.errors else 200)


@hosts_only
def new_series(request: HttpRequest) -> HttpResponse:
    form = forms.SeriesForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            result = services.create_series(
                request.user, first_date=data["first_date"], start_time=data["start"], end_time=data["end"],
                until=data["until"], count=data["count"], ambiguous=data["ambiguous"], games=data["games"],
                **form.service_values(),
            )
        except BookingError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("%(n)s sessions created.") % {"n": len(result.sessions)})
            for occ in result.skipped:
                messages.warning(request, _(
                    "%(day)s skipped: that time does not exist in Paris that night (the clocks go forward)."
                ) % {"day": occ.day.isoformat()})
            for occ in result.resolved:
                messages.warning(request, _(
                    "%(day)s: that time happens twice that night (the clocks go back); the session uses %(which)s."
                ) % {"day": occ.day.isoformat(), "which": dict(forms.AMBIGUOUS_CHOICES)[occ.resolution]})
            first = result.sessions[0] if result.sessions else None
            target = reverse("bookings:calendar")
            if first is not None:
                target += f"?view=month&date={timezone.localtime(first.starts_at).date().isoformat()}"
            return redirect(target)
    return render(request, "bookings/staff/new_series.html", {"form": form}, status=400 if form.errors else 200)
