"""Everything stored about an account, as one JSON document (the "export my data" download).

What is in it: the account and its preferences, its confirmed addresses, its
bookings and session proposals, the seats it took at tables (with the table's
game, dates and result), its chat messages, its ratings and rating changes
and its privacy choice, the play-log entries it is in or logged, and its API
tokens' metadata. What is not: any
secret (password hash, a token's text or digest, a table's seed, an
invitation key), and other people's data beyond what the person saw at the
table (the other seats are not listed).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from catalog.playlog.models import Play, Player
from games.bookings.models import Booking, Proposal, VerifiedAddress
from games.models import ChatMessage, Seat, Table
from games.ratings.models import Privacy, Rating, RatingChange
from ludo.account.history import game_titles
from ludo.language import account_language
from ludo.tokens.models import PersonalToken

FORMAT_VERSION = 2


def _at(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _booking(row: Booking) -> dict[str, Any]:
    return {
        "id": row.pk,
        "session": {"id": row.session_id, "title": row.session.title,
                    "starts_at": _at(row.session.starts_at), "ends_at": _at(row.session.ends_at)},
        "name": row.name, "email": row.email, "seats": row.seats, "status": row.status,
        "language": row.language, "note": row.note, "changes": row.changes, "attended": row.attended,
        "booked_at": _at(row.created_at), "cancelled_at": _at(row.cancelled_at),
    }


def _proposal(row: Proposal) -> dict[str, Any]:
    return {
        "id": row.pk, "game": str(row.game), "starts_at": _at(row.starts_at), "ends_at": _at(row.ends_at),
        "seats": row.seats, "name": row.name, "email": row.email, "message": row.message,
        "status": row.status, "session_id": row.session_id, "created_at": _at(row.created_at),
    }


def _seat(row: Seat, titles: dict[str, str]) -> dict[str, Any]:
    table = row.table
    return {
        "table": table.pk, "game": table.game, "game_title": titles.get(table.game, table.game),
        "seat": row.index, "name": row.name, "status": table.status, "rated": table.rated,
        "created_at": _at(table.created_at), "started_at": _at(table.started_at),
        "finished_at": _at(table.finished_at), "outcome": table.outcome, "resigned": row.resigned,
    }


def _chat(row: ChatMessage) -> dict[str, Any]:
    return {"table": row.table_id, "channel": row.channel, "seat": row.seat, "name": row.name,
            "text": row.text, "hidden_by_hosts": row.hidden, "at": _at(row.created_at)}


def _token(row: PersonalToken) -> dict[str, Any]:
    return {"name": row.name, "shown_as": row.shown, "created_at": _at(row.created_at),
            "last_used_at": _at(row.last_used_at), "revoked_at": _at(row.revoked_at)}


def _play(play: Play, user: Any) -> dict[str, Any]:
    """A play-log entry the person is in (their own row in full; the others as the log shows them)."""
    return {
        "id": play.pk, "game": str(play.game), "played_on": play.played_on.isoformat(),
        "logged_by_me": play.logged_by_id == user.pk, "note": play.note if play.logged_by_id == user.pk else None,
        "players": [{"name": p.name, "me": p.user_id == user.pk, "score": p.score, "won": p.won}
                    for p in play.players.all()],
        "created_at": _at(play.created_at),
    }


def _ratings(user: Any) -> dict[str, Any]:
    privacy = Privacy.objects.filter(user=user).values_list("private", flat=True).first()
    return {
        "private_profile": bool(privacy),
        "ratings": [{"game": r.game, "rating": r.rating, "rd": r.rd, "volatility": r.volatility, "games": r.games,
                     "last_played": _at(r.last_played)} for r in Rating.objects.filter(user=user).order_by("game")],
        "changes": [{"table": c.table_id, "game": c.game, "seat": c.seat, "result": c.result, "left": c.left,
                     "rating_before": c.rating_before, "rating_after": c.rating_after, "at": _at(c.created_at)}
                    for c in RatingChange.objects.filter(user=user).order_by("created_at", "pk")],
    }


def export(user: Any) -> dict[str, Any]:
    """The whole document for ``user``; JSON-ready."""
    titles = game_titles()
    seats = Seat.objects.filter(user=user).select_related("table").order_by("table_id", "index")
    oldest_first = ("created_at", "id")
    created = Table.objects.filter(created_by=user).order_by("pk").values_list("pk", flat=True)
    mine = Player.objects.filter(user=user).values("play_id")
    plays = (Play.objects.filter(Q(pk__in=mine) | Q(logged_by=user)).select_related("game")
             .prefetch_related("players").order_by("played_on", "pk"))
    return {
        "format": "ludo-account-export", "version": FORMAT_VERSION,
        "exported_at": _at(timezone.now()), "site": settings.SITE_URL,
        "account": {
            "username": user.get_username(), "email": user.email,
            "first_name": user.first_name, "last_name": user.last_name,
            "date_joined": _at(user.date_joined), "last_login": _at(user.last_login),
            "is_staff": user.is_staff,
        },
        "preferences": {"language": account_language(user) or None},
        "bookings": [_booking(b) for b in Booking.objects.filter(user=user).select_related("session")
                     .order_by("created_at", "id")],
        "session_proposals": [_proposal(p) for p in Proposal.objects.filter(user=user).select_related("game")
                              .order_by("created_at", "id")],
        "games": [_seat(s, titles) for s in seats],
        "tables_created": list(created),
        "chat_messages": [_chat(m) for m in ChatMessage.objects.filter(user=user).order_by(*oldest_first)],
        "api_tokens": [_token(t) for t in PersonalToken.objects.filter(user=user).order_by(*oldest_first)],
        "confirmed_addresses": [{"email": v.email, "confirmed_at": _at(v.verified_at)}
                                for v in VerifiedAddress.objects.filter(user=user).order_by("verified_at", "pk")],
        "ratings": _ratings(user),
        "play_log": [_play(p, user) for p in plays],
    }
