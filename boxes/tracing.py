"""Where a piece may have gone: the sessions a copy was set aside for, and the
plays of its game (or of a game printed in its box), since its last complete
count. Shown to the hosts only ("missing since the session of Saturday 14 at
20:00 (Ana, Ben…)"); guests never see names tied to a missing piece."""

from __future__ import annotations

from datetime import datetime

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from catalog.collection.models import Game
from catalog.playlog.models import Play
from catalog.shelves.models import Copy
from games.bookings.models import Booking, CopyReservation, Session

MOST = 20  # sessions and plays kept per shortfall
NAMES = 3


def games_of(copy: Copy) -> list[int]:
    """The copy's game and the games printed in its box."""
    inside = Game.objects.filter(kind=Game.Kind.IN_BOX, base_game_id=copy.game_id).values_list("id", flat=True)
    return [copy.game_id, *inside]


def sessions_between(copy: Copy, since: datetime | None, until: datetime) -> list[Session]:
    """Sessions the copy was set aside for that began before ``until`` and ended after ``since``."""
    found = Session.objects.filter(copy_reservations__copy=copy, starts_at__lt=until).exclude(
        status=Session.Status.CANCELLED)
    if since is not None:
        found = found.filter(ends_at__gt=since)
    return list(found.order_by("starts_at", "id")[:MOST])


def plays_between(copy: Copy, since: datetime | None, until: datetime) -> list[Play]:
    """Plays of the copy's games on the days from ``since`` to ``until``, except
    those of a session that set another copy aside and not this one."""
    games = games_of(copy)
    found = Play.objects.filter(game_id__in=games, played_on__lte=timezone.localdate(until))
    if since is not None:
        found = found.filter(played_on__gte=timezone.localdate(since))
    plays = list(found.prefetch_related("players").order_by("played_on", "id")[:MOST * 3])
    sessions = {p.session_id for p in plays if p.session_id}
    reserved = list(CopyReservation.objects.filter(session_id__in=sessions, copy__game_id__in=games)
                    .values_list("session_id", "copy_id"))
    ours = {s for s, c in reserved if c == copy.pk}
    elsewhere = {s for s, c in reserved if c != copy.pk} - ours
    return [p for p in plays if p.session_id not in elsewhere][:MOST]


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:NAMES])
    return shown + ("…" if len(names) > NAMES else "")


def session_names(session: Session) -> list[str]:
    return list(session.bookings.filter(status__in=Booking.HOLDING).order_by("created_at", "id")
                .values_list("name", flat=True))


def describe(sessions: list[Session], plays: list[Play], since: datetime | None) -> str:
    """One sentence for the hosts: the first evening the piece may have gone missing at."""
    if sessions:
        first = sessions[0]
        start = timezone.localtime(first.starts_at)
        text = _("missing since the session of %(day)s at %(time)s") % {
            "day": formats.date_format(start, "l j F"), "time": formats.time_format(start, "H:i")}
        names = session_names(first)
        if names:
            text += f" ({_names(names)})"
        others = len(sessions) - 1 + len(plays)
    elif plays:
        first = plays[0]
        text = _("missing since the play of %(when)s") % {"when": formats.date_format(first.played_on, "l j F")}
        names = [p.name for p in first.players.all()]
        if names:
            text += f" ({_names(names)})"
        others = len(plays) - 1
    else:
        if since is None:
            return _("no session or play recorded for this box")
        return _("no session or play recorded since it was last found complete (%(when)s)") % {
            "when": formats.date_format(timezone.localtime(since), "j F Y")}
    if others:
        text += " " + _("or one of the %(n)d uses after it") % {"n": others}
    return text
