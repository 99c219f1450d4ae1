"""Who a request speaks for in the play log: an account, and the booking whose
emailed link it carries (``booking=<token>``, the booking pages' own link; a
link made stale by a change of the booking, or expired, counts for nothing)."""

from __future__ import annotations

from django.http import HttpRequest

from catalog.playlog.services import Author
from games.bookings import tokens
from games.bookings.errors import BookingError
from games.bookings.models import Booking


def author_of(request: HttpRequest) -> tuple[Author, str]:
    """The author, and the booking token when it is valid ("" otherwise)."""
    token = str(request.GET.get("booking") or request.POST.get("booking") or "")[:500]
    booking = None
    if token:
        try:
            link = tokens.read_manage_token(token)
            booking = Booking.objects.select_related("session").get(pk=link.pk)
            if link.counter != booking.changes:
                booking = None
        except (BookingError, Booking.DoesNotExist):
            booking = None
    user = request.user if request.user.is_authenticated else None
    return Author(user, booking), token if booking is not None else ""


def group_of(request: HttpRequest) -> tuple[Booking | None, object] | None:
    """The group a request speaks for, as (booking, account); None when neither."""
    author, _token = author_of(request)
    if author.booking is None and author.user is None:
        return None
    return author.booking, author.user
