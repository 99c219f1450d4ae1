"""The play log seen from other pages: a game's line ("played 3 times here"),
and the link to log what was played from a session's or a booking's page."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.http import urlencode

from catalog.playlog import stats
from catalog.playlog.services import Author, can_log
from games.bookings.models import Booking

register = template.Library()


@register.inclusion_tag("playlog/_played_here.html", takes_context=True)
def played_here(context, game):
    user = context.get("user")
    return {"played": stats.played_here(game), "game": game,
            "log_url": f"{reverse('playlog:log')}?{urlencode({'game': game.slug})}",
            "can_log": bool(user is not None and user.is_authenticated)}


@register.inclusion_tag("playlog/_session_link.html", takes_context=True)
def log_from_session(context, session):
    """For a session under way or over: its hosts and the accounts booked on it
    are offered to log a play prefilled with its day and people."""
    user = context.get("user")
    show = bool(user is not None and user.is_authenticated and session.has_started() and (
        Author(user).is_host or session.bookings.filter(user=user, status=Booking.Status.CONFIRMED).exists()))
    return {"show": show, "url": f"{reverse('playlog:log')}?{urlencode({'session': session.pk})}",
            "plays": session.plays.select_related("game").order_by("-played_on", "-id")[:30] if show else []}


@register.inclusion_tag("playlog/_session_link.html")
def log_from_booking(booking, token):
    """On a booking's page (its emailed link): log a play with that link."""
    show = can_log(Author(None, booking))
    return {"show": show, "url": f"{reverse('playlog:log')}?{urlencode({'booking': token})}",
            "plays": booking.plays.select_related("game").order_by("-played_on", "-id")[:30] if show else [],
            "token": token,
            "picker_url": f"{reverse('catalog:pick')}?{urlencode({'booking': token, 'not_played': 'on', 'players': booking.seats})}"
            if show and 2 <= booking.seats <= 15 else ""}
