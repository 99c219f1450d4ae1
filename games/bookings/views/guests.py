"""The guests' pages: upcoming sessions, a session's page with its booking form."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from games.bookings import forms, services, throttle, tokens
from games.bookings.conf import confirm_within
from games.bookings.errors import BookingError
from games.bookings.models import Booking, Session
from games.bookings.views.common import too_many, visitor_language


def session_list(request: HttpRequest) -> HttpResponse:
    sessions = (Session.objects.public().upcoming().prefetch_related("games")
                .select_related("host").order_by("starts_at")[:100])
    return render(request, "bookings/list.html", {"sessions": sessions})


def _visible_session(request: HttpRequest, pk: int) -> tuple[Session, str]:
    session = get_object_or_404(Session.objects.select_related("table", "host"), pk=pk)
    invite = request.GET.get("invite") or request.POST.get("invite") or ""
    if not services.can_see(session, invite, request.user):
        raise Http404
    return session, invite


def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    session, invite = _visible_session(request, pk)
    initial = {"seats": 1}
    if request.user.is_authenticated:
        initial.update(name=request.user.get_full_name() or request.user.get_username(), email=request.user.email)
    else:
        from ludo.accounts import display_name

        initial["name"] = display_name(request) or ""
    if request.method == "POST" and not throttle.address_allowed(request, "book"):
        return too_many(request)
    form = forms.BookingForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        if not throttle.email_allowed(form.cleaned_data["email"], "book"):
            return redirect("bookings:check_email")  # the answer a first request gets
        try:
            booking = services.request_booking(session.pk, user=request.user, language=visitor_language(),
                                               invite=invite, **form.cleaned_data)
        except BookingError as exc:
            form.add_error(None, exc.message)
        else:
            if booking.status == Booking.Status.UNVERIFIED:
                return redirect("bookings:check_email")
            messages.success(request, status_message(booking))
            return redirect("bookings:manage", token=tokens.manage_token(booking))
    reservations = session.copy_reservations.select_related("copy", "copy__game")
    return render(request, "bookings/session.html", {
        "session": session, "form": form, "invite": invite, "games": session.games.all(),
        "reservations": reservations, "waiting": session.waiting_count(),
    }, status=400 if form.errors else 200)


def confirm_minutes() -> int:
    return int(confirm_within().total_seconds() // 60)


def check_email(request: HttpRequest) -> HttpResponse:
    """After a visitor's booking or proposal: the same page whoever asked."""
    return render(request, "bookings/check_email.html", {"minutes": confirm_minutes()})


def status_message(booking: Booking) -> str:
    return {
        Booking.Status.CONFIRMED: _("Your booking is confirmed. We have emailed you the details."),
        Booking.Status.PENDING: _("Your booking is waiting for a host's approval. We will email you."),
        Booking.Status.WAITING: _("The session is full: you are on the waiting list. We will email you if seats free up."),
    }.get(booking.status, "")
