"""A session on the hosts' side: its settings and bookings (approve, decline,
cancel, who came), its copies, its live table, its list as CSV, cancelling it."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.bookings import forms, services
from games.bookings.conf import attendance_opens
from games.bookings.errors import BookingError
from games.bookings.links import table_link
from games.bookings.models import Booking, CopyReservation, Session
from games.bookings.views.common import act, hosts_only
from ludo.spreadsheet import SafeWriter, csv_response


def _staff_session(pk: int) -> Session:
    return get_object_or_404(Session.objects.select_related("host", "table", "series"), pk=pk)


@hosts_only
def staff_session(request: HttpRequest, pk: int) -> HttpResponse:
    session = _staff_session(pk)
    settings_form = forms.SettingsForm(request.POST or None, initial={
        **{name: getattr(session, name) for name in forms.SettingsForm.base_fields if name != "games"},
        "games": "\n".join(g.title for g in session.games.all()),
    })
    if request.method == "POST" and settings_form.is_valid():
        try:
            services.update_session(session.pk, request.user, games=settings_form.cleaned_data["games"],
                                    **settings_form.service_values())
        except BookingError as exc:
            settings_form.add_error(None, exc.message)
        else:
            messages.success(request, _("Session saved."))
            return redirect(session.staff_url())
    bookings = (session.bookings.exclude(status=Booking.Status.UNVERIFIED).select_related("user")
                .order_by("status", "created_at", "id"))
    return render(request, "bookings/staff/session.html", {
        "session": session, "bookings": bookings, "settings_form": settings_form,
        "copy_form": forms.CopyForm(session=session), "reason_form": forms.ReasonForm(),
        "reservations": session.copy_reservations.select_related("copy", "copy__game", "copy__box_state"),
        "playable": session.playable_games(), "table_url": table_link(session),
        "attendance_open": timezone.now() >= session.starts_at - attendance_opens(),
        "held": {b.pk for b in bookings if b.holds_seats},
    }, status=400 if settings_form.errors else 200)


@hosts_only
@require_POST
def staff_booking(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    booking = get_object_or_404(Booking, pk=pk)
    user = request.user
    reason = request.POST.get("reason", "")
    actions = {
        "approve": (lambda: services.approve(pk, user), _("Booking approved.")),
        "decline": (lambda: services.decline(pk, user, reason), _("Booking declined.")),
        "cancel": (lambda: services.cancel(pk, by_staff=user), _("Booking cancelled.")),
        "came": (lambda: services.mark_attendance(pk, user, True), _("Marked as come.")),
        "absent": (lambda: services.mark_attendance(pk, user, False), _("Marked as absent.")),
        "unknown": (lambda: services.mark_attendance(pk, user, None), _("Attendance cleared.")),
    }
    if action not in actions:
        raise Http404
    call, done = actions[action]
    return act(request, call, done, reverse("bookings:staff_session", args=[booking.session_id]))


@hosts_only
@require_POST
def staff_cancel_session(request: HttpRequest, pk: int) -> HttpResponse:
    form = forms.ReasonForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    return act(request, lambda: services.cancel_session(pk, request.user, reason), _("Session cancelled."),
                reverse("bookings:staff_session", args=[pk]))


@hosts_only
@require_POST
def staff_reserve_copy(request: HttpRequest, pk: int) -> HttpResponse:
    """The copy chosen in the form, checked by the service under its locks (not by
    the form's list: a crafted request, or a box a count took off the list since
    the page was drawn, is told why not)."""
    session = _staff_session(pk)
    copy_id = request.POST.get("copy", "").strip()
    if not copy_id:
        messages.error(request, _("Choose a copy of a game on offer."))
        return redirect(session.staff_url())
    return act(request, lambda: services.reserve_copy(pk, copy_id, request.user), _("Copy reserved."),
                session.staff_url())


@hosts_only
@require_POST
def staff_release_copy(request: HttpRequest, pk: int) -> HttpResponse:
    reservation = get_object_or_404(CopyReservation, pk=pk)
    return act(request, lambda: services.release_copy(pk, request.user), _("Reservation removed."),
                reverse("bookings:staff_session", args=[reservation.session_id]))


@hosts_only
@require_POST
def staff_open_table(request: HttpRequest, pk: int) -> HttpResponse:
    return act(request, lambda: services.open_live_table(pk, request.user, request.POST.get("game") or None),
                _("Live table opened; the people booked can join it from their booking page."),
                reverse("bookings:staff_session", args=[pk]))


@hosts_only
def export_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """A session's list for a spreadsheet: one row per booking."""
    session = _staff_session(pk)
    start = timezone.localtime(session.starts_at)
    response = csv_response(f"session-{session.pk}-{start:%Y-%m-%d}.csv")
    writer = SafeWriter(response)  # no cell a spreadsheet would run as a formula
    writer.writerow([_("Name"), _("Email"), _("Seats"), _("Status"), _("Came"), _("Booked at"), _("Message")])
    came = {True: _("yes"), False: _("no"), None: ""}
    for booking in session.bookings.exclude(status=Booking.Status.UNVERIFIED).order_by("created_at", "id"):
        writer.writerow([
            booking.name, booking.email, booking.seats, booking.get_status_display(),
            came[booking.attended], f"{timezone.localtime(booking.created_at):%Y-%m-%d %H:%M}",
            booking.note,
        ])
    return response

