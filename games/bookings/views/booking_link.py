"""A booking reached from its emailed link (no account needed): view, change,
cancel, accept an offer, its .ics; and sending lost links again."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games.bookings import forms, ics, services, throttle, tokens
from games.bookings.errors import BookingError
from games.bookings.links import table_link
from games.bookings.models import Booking
from games.bookings.views.common import too_many, visitor_language
from games.bookings.views.guests import status_message


def _booking_from_token(token: str) -> tuple[Booking | None, BookingError | None]:
    try:
        link = tokens.read_manage_token(token)
        booking = Booking.objects.select_related("session", "session__table").get(pk=link.pk)
        if booking.status == Booking.Status.UNVERIFIED:
            raise BookingError("bad_link")
        if link.counter != booking.changes:
            raise BookingError("stale_link")
    except BookingError as exc:
        return None, exc
    except Booking.DoesNotExist:
        return None, BookingError("bad_link")
    return booking, None


def manage(request: HttpRequest, token: str) -> HttpResponse:
    """A booking, reached from its emailed link: view, change, cancel, accept an offer."""
    booking, error = _booking_from_token(token)
    if error is not None:
        return render(request, "bookings/link_error.html", {"error": error, "form": forms.ResendForm()},
                      status=410 if error.code in ("expired_link", "stale_link") else 400)
    change_form = forms.ChangeForm(initial={"seats": booking.seats, "name": booking.name})
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "cancel":
                services.cancel(booking.pk, counter=booking.changes)
                messages.success(request, _("Your booking is cancelled."))
            elif action == "accept":
                booking = services.accept_offer(booking.pk, counter=booking.changes)
                messages.success(request, status_message(booking))
            elif action == "change":
                change_form = forms.ChangeForm(request.POST)
                if change_form.is_valid():
                    booking = services.change(booking.pk, counter=booking.changes, **change_form.cleaned_data)
                    messages.success(request, _("Your booking is changed. The links in earlier emails no longer work."))
                    return redirect("bookings:manage", token=tokens.manage_token(booking))
            else:
                raise BookingError("bad_value", field="action", problem=str(action)[:20])
        except BookingError as exc:
            messages.error(request, exc.message)
        if not change_form.errors:
            return redirect("bookings:manage", token=token)
    booking.refresh_from_db()
    session = booking.session
    now = timezone.now()
    return render(request, "bookings/manage.html", {
        "booking": booking, "session": session, "token": token, "change_form": change_form,
        "games": session.games.all(), "can_cancel": booking.is_active and (
            not booking.holds_seats or booking.status == Booking.Status.OFFERED or now <= session.cancel_deadline()),
        "can_change": booking.status in (Booking.Status.PENDING, Booking.Status.CONFIRMED, Booking.Status.WAITING)
        and booking.changes_left() > 0 and now <= session.cancel_deadline(),
        "table_url": table_link(session) if booking.status == Booking.Status.CONFIRMED else None,
    }, status=400 if change_form.errors else 200)


def booking_ics(request: HttpRequest, token: str) -> HttpResponse:
    booking, error = _booking_from_token(token)
    if error is not None:
        raise Http404
    url = request.build_absolute_uri(reverse("bookings:manage", args=[token]))
    response = HttpResponse(ics.booking_calendar(booking, url), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ludo-{booking.session_id}.ics"'
    return response


def resend_links(request: HttpRequest) -> HttpResponse:
    """Lost the email? The links of that address's live bookings go to that
    address, by the worker, at most once per window; the request does the
    same work and gives the same answer whether or not it has bookings."""
    if request.method == "POST" and not throttle.address_allowed(request, "lost_link"):
        return too_many(request)
    form = forms.ResendForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        if throttle.email_allowed(email, "lost_link"):
            try:
                services.request_links(email, visitor_language())
            except BookingError:
                pass  # an address the form took but the service does not: nothing to send

        messages.success(request, _("If this address has bookings, their links are on their way."))
        return redirect("bookings:list")
    return render(request, "bookings/resend.html", {"form": form}, status=400 if form.errors else 200)
