"""Calendar feeds: the public sessions, each host's own (at a secret address),
and the hosts' page that gives (and renews) that address."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games.bookings import ics, services
from games.bookings.models import HostFeed, Session
from games.bookings.views.common import hosts_only

FEED_PAST = timedelta(days=30)
FEED_FUTURE = timedelta(days=400)


def _calendar_response(body: bytes, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{name}.ics"'
    return response


def public_feed(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    sessions = (Session.objects.filter(visibility=Session.Visibility.PUBLIC)
                .filter(starts_at__gte=now - FEED_PAST, starts_at__lte=now + FEED_FUTURE)
                .prefetch_related("games"))
    return _calendar_response(ics.public_feed(sessions), "ludo-sessions")


def host_feed(request: HttpRequest, key: str) -> HttpResponse:
    feed = HostFeed.objects.select_related("user").filter(key=key).first()
    if feed is None or not feed.user.is_active or not feed.user.is_staff:
        raise Http404
    now = timezone.now()
    sessions = (Session.objects.filter(host=feed.user)
                .filter(starts_at__gte=now - FEED_PAST, starts_at__lte=now + FEED_FUTURE)
                .prefetch_related("games", "bookings"))
    return _calendar_response(ics.host_feed(sessions, feed.user.get_username()), "ludo-host")


@hosts_only
def my_feed(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        feed = services.renew_host_feed(request.user)
        messages.success(request, _("Your calendar has a new address; the old one no longer works."))
        return redirect("bookings:my_feed")
    feed = services.host_feed(request.user)
    return render(request, "bookings/staff/feed.html", {
        "feed_url": request.build_absolute_uri(reverse("bookings:host_feed", args=[feed.key])),
        "public_url": request.build_absolute_uri(reverse("bookings:public_feed")),
    })
