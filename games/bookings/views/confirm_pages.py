"""The links that confirm a visitor's booking or proposal (double opt-in).

Following the link shows what is to be confirmed and a button: the
confirmation is a POST, so a mail scanner that opens every link confirms
nothing."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from games.bookings import services, tokens
from games.bookings.errors import BookingError
from games.bookings.links import public_url
from games.bookings.models import Booking, Proposal
from games.bookings.views.guests import status_message


def _refused(request: HttpRequest, error: BookingError) -> HttpResponse:
    status = 410 if error.code in ("expired_link", "confirm_expired") else 400 if error.code == "bad_link" else 409
    return render(request, "bookings/link_error.html", {"error": error, "form": None}, status=status)


def confirm(request: HttpRequest, token: str) -> HttpResponse:
    try:
        link = tokens.read_confirm_token(token)
    except BookingError as exc:
        return _refused(request, exc)
    if request.method == "POST":
        try:
            booking, already = services.confirm_booking(link.pk)
        except BookingError as exc:
            if exc.code == "confirm_expired":
                return _refused(request, exc)
            # The session filled up, was cancelled or has started: say so on its page.
            messages.error(request, exc.message)
            session = Booking.objects.select_related("session").get(pk=link.pk).session
            return redirect(public_url(session))
        if already:
            messages.info(request, _("This address already had a booking for this session: here it is."))
        else:
            messages.success(request, status_message(booking))
        return redirect("bookings:manage", token=tokens.manage_token(booking))
    booking = Booking.objects.select_related("session").filter(pk=link.pk).first()
    if booking is None or (booking.status == Booking.Status.UNVERIFIED and booking.confirm_by <= timezone.now()):
        return _refused(request, BookingError("confirm_expired"))
    if booking.status != Booking.Status.UNVERIFIED:
        return redirect("bookings:manage", token=tokens.manage_token(booking))
    return render(request, "bookings/confirm.html", {"booking": booking, "session": booking.session})


def confirm_proposal(request: HttpRequest, token: str) -> HttpResponse:
    try:
        link = tokens.read_confirm_proposal_token(token)
    except BookingError as exc:
        return _refused(request, exc)
    if request.method == "POST":
        try:
            proposal = services.confirm_proposal(link.pk)
        except BookingError as exc:
            return _refused(request, exc)
        messages.success(request, _("Thank you! Your proposal is confirmed; the hosts will answer by email."))
        return redirect("bookings:proposal", token=tokens.proposal_token(proposal))
    proposal = Proposal.objects.select_related("game").filter(pk=link.pk).first()
    if proposal is None or (proposal.status == Proposal.Status.UNVERIFIED and proposal.confirm_by <= timezone.now()):
        return _refused(request, BookingError("confirm_expired"))
    if proposal.status != Proposal.Status.UNVERIFIED:
        return redirect("bookings:proposal", token=tokens.proposal_token(proposal))
    return render(request, "bookings/confirm_proposal.html", {"proposal": proposal})
