"""The play log's actions: log, change, delete a play, and who may do which.

Someone logging a play is an ``Author``: an account, or a guest holding the
emailed link of a confirmed booking (no account needed). The author of a play
may change or delete it (the same account, or the same booking's link); the
hosts (the play log's change and delete permissions) may change or delete any.
Every change is checked by ``rules`` first: a refused play writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from catalog.collection.models import Game
from catalog.playlog import rules
from catalog.playlog.models import Play, Player
from catalog.playlog.rules import Entry, PlayRefused, Problem
from games.bookings.models import Booking, Session


@dataclass(frozen=True)
class Author:
    user: Any = None  # an authenticated account, or None
    booking: Booking | None = None  # the booking whose link is used, or None

    @property
    def is_host(self) -> bool:
        return bool(self.user is not None and self.user.is_staff and self.user.has_perm("playlog.change_play"))

    @property
    def known(self) -> bool:
        return self.user is not None or self.booking is not None


def can_log(author: Author) -> bool:
    if author.user is not None:
        return True
    booking = author.booking
    return booking is not None and booking.status == Booking.Status.CONFIRMED and booking.session.has_started()


def _own(author: Author, play: Play) -> bool:
    return ((author.user is not None and play.logged_by_id == author.user.pk)
            or (author.booking is not None and play.booking_id == author.booking.pk))


def can_change(author: Author, play: Play) -> bool:
    return _own(author, play) or author.is_host


def can_delete(author: Author, play: Play) -> bool:
    user = author.user
    return _own(author, play) or bool(user is not None and user.is_staff and user.has_perm("playlog.delete_play"))


def session_for(author: Author, session_id: Any) -> Session | None:
    """The session a play is logged for: the booking's own (link), or one the
    account took part in (a confirmed booking) or, for hosts, any."""
    if author.booking is not None:
        return author.booking.session
    if session_id in (None, ""):
        return None
    try:
        session = Session.objects.get(pk=int(session_id))
    except (Session.DoesNotExist, TypeError, ValueError):
        return None
    if author.is_host or (author.user is not None and session.bookings.filter(
            user=author.user, status=Booking.Status.CONFIRMED).exists()):
        return session
    return None


def today() -> date:
    return timezone.localdate()


def check(entry: Entry, on: date | None = None) -> Entry:
    """The entry tidied, with its winners by score; PlayRefused with every problem."""
    entry = rules.with_winners(rules.tidy(entry))
    found = rules.problems(entry, on or today())
    if entry.game_id is not None and not Game.objects.filter(pk=entry.game_id).exists():
        found.insert(0, Problem("game", _("Pick the game in the list.")))
    user_ids = {s.user_id for s in rules.players(entry) if s.user_id is not None}
    if user_ids and get_user_model().objects.filter(pk__in=user_ids).count() != len(user_ids):
        found.append(Problem("players", _("One of the accounts no longer exists.")))
    if found:
        raise PlayRefused(found)
    return entry


@transaction.atomic
def log_play(author: Author, entry: Entry, session: Session | None = None, on: date | None = None) -> Play:
    if not can_log(author):
        raise PermissionDenied
    entry = check(entry, on)
    play = Play(logged_by=author.user, booking=author.booking,
                session=author.booking.session if author.booking is not None else session)
    _write(play, entry)
    return play


@transaction.atomic
def change_play(play_id: int, author: Author, entry: Entry, on: date | None = None) -> Play:
    play = Play.objects.select_for_update().get(pk=play_id)
    if not can_change(author, play):
        raise PermissionDenied
    entry = check(entry, on)
    play.players.all().delete()
    _write(play, entry)
    return play


@transaction.atomic
def delete_play(play_id: int, author: Author) -> None:
    play = Play.objects.select_for_update().get(pk=play_id)
    if not can_delete(author, play):
        raise PermissionDenied
    play.delete()


def _write(play: Play, entry: Entry) -> None:
    play.game_id = entry.game_id
    play.played_on = entry.played_on
    play.note = entry.note
    play.lowest_wins = entry.lowest_wins
    play.negative_scores = entry.negative_scores
    play.save()
    Player.objects.bulk_create([
        Player(play=play, position=i, name=s.name, name_key=s.key, user_id=s.user_id, score=s.score, won=s.won)
        for i, s in enumerate(rules.players(entry))
    ])


def entry_of(play: Play) -> Entry:
    """A saved play as an entry (for its edit form)."""
    seats = [rules.Seat(p.name, p.score, p.won, p.user_id) for p in play.players.all()]
    return Entry(play.game_id, play.played_on, seats, play.note, play.lowest_wins, play.negative_scores,
                 nobody_won=bool(seats) and not any(s.won for s in seats))
