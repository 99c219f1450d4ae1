"""Leaderboards (one per game, public) and player profiles (accounts only,
private if the player wishes)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games import engines
from games.models import Seat, Table
from games.pages import games_info
from games.ratings import service
from games.ratings.chart import chart, sparkline
from games.ratings.models import PROVISIONAL_RD, Departure, Privacy, Rating, RatingChange

ACTIVE_DAYS = 90
BOARD_SIZE = 100
LAST_GAMES = 10
CHART_POINTS = 30


def _titles() -> dict[str, str]:
    return {g["slug"]: g["title"] for g in games_info()}


def _is_private(user: Any) -> bool:
    return Privacy.objects.filter(user=user, private=True).exists()


def _chart(values: list[float], name: str, title: str, large: bool = False) -> str:
    label = _("Rating history of %(name)s at %(game)s") % {"name": name, "game": title}
    return (chart if large else sparkline)(values[-CHART_POINTS:], label)


def _histories(game: str, user_ids: list[int]) -> dict[int, list[float]]:
    found: dict[int, list[float]] = {}
    rows = (RatingChange.objects.filter(game=game, user_id__in=user_ids)
            .order_by("created_at", "id").values_list("user_id", "rating_before", "rating_after"))
    for user_id, before, after in rows:
        found.setdefault(user_id, [before]).append(after)
    return found


def leaderboards(request: HttpRequest) -> HttpResponse:
    return render(request, "ratings/leaderboards.html", {"games": games_info()})


def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    """Players active at ``game`` in the last 90 days, by rating; provisional
    ratings (deviation still high) listed apart, marked "?". Private profiles
    are left out."""
    try:
        rules = engines.get(game)
    except KeyError:
        raise Http404 from None
    title = _titles().get(rules.slug, rules.title)
    since = timezone.now() - timedelta(days=ACTIVE_DAYS)
    rows = list(
        Rating.objects.filter(game=rules.slug, last_played__gte=since, user__is_active=True)
        .exclude(user__rating_privacy__private=True)
        .select_related("user").order_by("-rating", "user__username")[:BOARD_SIZE * 2]
    )
    history = _histories(rules.slug, [r.user_id for r in rows])
    ranked, provisional = [], []
    for row in rows:
        entry = {"row": row, "name": row.user.get_username(),
                 "chart": _chart(history.get(row.user_id, []), row.user.get_username(), title)}
        (provisional if row.provisional else ranked).append(entry)
    for rank, entry in enumerate(ranked, 1):
        entry["rank"] = rank
    return render(request, "ratings/leaderboard.html", {
        "game": {"slug": rules.slug, "title": title}, "ranked": ranked[:BOARD_SIZE],
        "provisional": provisional[:BOARD_SIZE], "days": ACTIVE_DAYS, "threshold": round(PROVISIONAL_RD),
    })


def _result(table: Table, seat: int, left: bool) -> str:
    if left:
        return "loss"
    winners = (table.outcome or {}).get("winners") or []
    if not winners:
        return "draw"
    return "win" if seat in winners else "loss"


def _played(user: Any) -> list[tuple[Table, int, bool]]:
    """Every finished game of ``user``: (table, seat, left), newest first."""
    found = {}
    for seat in Seat.objects.filter(user=user, table__status=Table.Status.FINISHED).select_related("table"):
        found[seat.table_id] = (seat.table, seat.index, False)
    left = Departure.objects.filter(user=user, table__status=Table.Status.FINISHED).select_related("table")
    for dep in left:
        found[dep.table_id] = (dep.table, dep.seat, True)
    return sorted(found.values(), key=lambda t: (t[0].finished_at or t[0].created_at), reverse=True)


@login_required
@require_http_methods(["GET", "POST"])
def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    mine = request.user.pk == player.pk
    if request.method == "POST":
        if not mine:
            return HttpResponse(_("Only the player may change this."), status=403)
        choice = request.POST.get("private")
        if choice not in ("0", "1"):
            return HttpResponse(_("Choose whether the profile is private."), status=400)
        service.set_private(player, choice == "1")
        return redirect("player_profile", username=player.get_username())
    private = _is_private(player)
    if private and not mine and not request.user.is_staff:
        return render(request, "ratings/private.html", {"player": player}, status=403)
    titles = _titles()
    played = _played(player)
    per_game: dict[str, dict[str, Any]] = {}

    def stats_of(game: str) -> dict[str, Any]:
        return per_game.setdefault(game, {"slug": game, "title": titles.get(game, game), "played": 0,
                                          "win": 0, "loss": 0, "draw": 0, "rating": None})

    for table, seat, left in played:
        stats = stats_of(table.game)
        stats["played"] += 1
        stats[_result(table, seat, left)] += 1
    for rating in Rating.objects.filter(user=player):
        stats = stats_of(rating.game)
        stats["rating"] = rating
        values = _histories(rating.game, [player.pk]).get(player.pk, [])
        stats["chart"] = _chart(values, player.get_username(), stats["title"], large=True)
    recent = [t.pk for t, _seat, _left in played[:LAST_GAMES * 3]]
    changes = {c.table_id: c for c in RatingChange.objects.filter(user=player, table_id__in=recent)}
    last = []
    for table, seat, left in played:
        if table.private and not mine and not request.user.is_staff:
            continue
        change = changes.get(table.pk)
        last.append({
            "table": table, "title": titles.get(table.game, table.game), "result": _result(table, seat, left),
            "left": left, "change": change,
            "delta": round(change.rating_after) - round(change.rating_before) if change else None,
            "opponents": [s.name for s in Seat.objects.filter(table=table).exclude(index=seat)],
        })
        if len(last) == LAST_GAMES:
            break
    return render(request, "ratings/profile.html", {
        "player": player, "mine": mine, "private": private,
        "games": sorted(per_game.values(), key=lambda g: (-g["played"], g["title"])), "last": last,
    })
