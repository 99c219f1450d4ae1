"""The play log's pages: log a play, change or delete it, my plays, the game
search of the form, and the hosts' year. Look up, check permission, call a
service, render."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from catalog.collection import search
from catalog.collection.models import Game
from catalog.playlog import people, services, stats
from catalog.playlog.access import author_of
from catalog.playlog.forms import PlayForm
from catalog.playlog.models import Play
from catalog.playlog.rules import Entry, PlayRefused, Seat

SEARCH_LIMIT = 8


def _refuse(request: HttpRequest, author: services.Author) -> HttpResponse:
    if not author.known:
        return redirect_to_login(request.get_full_path())
    return render(request, "playlog/refused.html", status=403)


def _with_token(url: str, token: str) -> str:
    return f"{url}?{urlencode({'booking': token})}" if token else url


def _defaults(game: Game | None) -> tuple[bool, bool]:
    """A game's scoring as its last play had it (lowest wins, scores below zero)."""
    last = Play.objects.filter(game=game).order_by("-played_on", "-id").first() if game else None
    return (last.lowest_wins, last.negative_scores) if last else (False, False)


def log(request: HttpRequest) -> HttpResponse:
    author, token = author_of(request)
    if not services.can_log(author):
        return _refuse(request, author)
    session = services.session_for(author, request.GET.get("session") or request.POST.get("session"))
    proposed = people.proposed(author, session)
    if request.method == "POST":
        form = PlayForm(request.POST, people=proposed)
        if form.is_valid():
            try:
                play = services.log_play(author, form.entry, session=session)
            except PlayRefused as refused:
                form.add_problems(refused.problems)
            else:
                messages.success(request, _("Play of %(game)s saved.") % {"game": play.game.display_title})
                return redirect(play.game.get_absolute_url())
    else:
        game = Game.objects.filter(slug=request.GET.get("game", "")[:80]).first()
        day = services.today()
        if session is not None and session.local_start.date() <= day:
            day = session.local_start.date()
        lowest, negative = _defaults(game)
        seats = [Seat(p.name, user_id=p.user_id) for p in people.session_people(author, session)]
        form = PlayForm(entry=Entry(game.pk if game else None, day, seats, "", lowest, negative), people=proposed,
                        game=game)
    return _page(request, form, author, token, session=session)


def _page(request: HttpRequest, form: PlayForm, author: services.Author, token: str, *, play: Play | None = None,
          session=None) -> HttpResponse:
    mine = []
    if author.booking is not None:
        mine = list(Play.objects.filter(booking=author.booking).select_related("game").prefetch_related("players")[:20])
    return render(request, "playlog/form.html", {
        "form": form, "play": play, "token": token, "session": session or (play.session if play else None),
        "people": form.people, "today": services.today(), "booking_plays": mine,
        "can_delete": play is not None and services.can_delete(author, play),
    }, status=400 if form.errors else 200)


def edit(request: HttpRequest, pk: int) -> HttpResponse:
    author, token = author_of(request)
    play = get_object_or_404(Play.objects.select_related("game", "session"), pk=pk)
    if not services.can_change(author, play):
        return _refuse(request, author)
    proposed = people.proposed(author, play.session)
    proposed += [people.Person(p.name, p.user_id) for p in play.players.all() if p.user_id]
    if request.method == "POST":
        form = PlayForm(request.POST, people=proposed)
        if form.is_valid():
            try:
                play = services.change_play(play.pk, author, form.entry)
            except PlayRefused as refused:
                form.add_problems(refused.problems)
            else:
                messages.success(request, _("Play of %(game)s saved.") % {"game": play.game.display_title})
                return redirect(play.game.get_absolute_url())
    else:
        form = PlayForm(entry=services.entry_of(play), people=proposed, game=play.game)
    return _page(request, form, author, token, play=play)


@require_POST
def delete(request: HttpRequest, pk: int) -> HttpResponse:
    author, token = author_of(request)
    play = get_object_or_404(Play.objects.select_related("game"), pk=pk)
    if not services.can_delete(author, play):
        return _refuse(request, author)
    services.delete_play(play.pk, author)
    messages.success(request, _("Play of %(game)s deleted.") % {"game": play.game.display_title})
    if author.booking is not None and author.user is None:
        return redirect(_with_token(reverse("playlog:log"), token))
    return redirect("playlog:mine")


def mine(request: HttpRequest) -> HttpResponse:
    """The plays I logged or played in (the hosts: every play)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    author = services.Author(request.user)
    plays = Play.objects.all() if author.is_host else stats.group_plays(user=request.user)
    page = Paginator(plays.select_related("game").prefetch_related("players").order_by("-played_on", "-id"), 30)
    return render(request, "playlog/mine.html", {
        "page": page.get_page(request.GET.get("page")), "all": author.is_host,
    })


def games(request: HttpRequest) -> JsonResponse:
    """The form's search as you type: the catalogue's title search (every name of
    a game, French ones included), the best few."""
    query = request.GET.get("q", "").strip()[:100]
    ids = search.search_games(query, limit=SEARCH_LIMIT) if query else []
    found = Game.objects.in_bulk(ids)
    return JsonResponse({"games": [
        {"id": g.pk, "title": g.display_title, "original": g.original_title, "year": g.year_label}
        for g in (found[i] for i in ids if i in found)
    ]})


@staff_member_required
def year(request: HttpRequest) -> HttpResponse:
    """The hosts' view of a year: the most and least played boxes."""
    if not request.user.has_perm("playlog.view_play"):
        raise PermissionDenied
    this_year = services.today().year
    raw = request.GET.get("year", "")
    chosen = int(raw) if raw.isdigit() and 2000 <= int(raw) <= this_year else this_year
    return render(request, "playlog/year.html", {
        "year": chosen, "years": list(range(this_year, max(this_year - 5, 1999), -1)), **stats.year(chosen),
        "previous": chosen - 1 if chosen > 2000 else None, "next": chosen + 1 if chosen < this_year else None,
        "start": date(chosen, 1, 1),
    })
