"""The tournament's pages: create (hosts), the screen (standings live, the
round's tables, the countdown, the code and QR to join; at the end the
podium and the final table, printable), a phone joining by the code, and
each player's page, which follows them from table to table.

Thin: parse, authorise, call tournaments.services, answer. The screen and the
phones poll (every few seconds, a 204 when nothing changed): no socket to
drop during a pairing, and a phone coming back finds where it stands.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from catalog.shelves import qr
from games import pages
from games.living import codes
from games.protocol import ERROR_MESSAGES, TableError
from games.services.who import Who
from ludo.accounts import GUEST_NAME_KEY, GUEST_NAME_MAX, NameTaken, clean_guest_name
from tournaments import history, privacy, services
from tournaments.errors import TournamentError
from tournaments.models import Entrant, Pairing, Tournament
from tournaments.services.rounds import total_rounds

FORMATS = [(Tournament.Format.SWISS, Tournament.Format.SWISS.label),
           (Tournament.Format.ROUND_ROBIN, Tournament.Format.ROUND_ROBIN.label),
           (Tournament.Format.ARENA, Tournament.Format.ARENA.label)]


def _tournament(pk: int) -> Tournament:
    found = Tournament.objects.filter(pk=pk).first()
    if found is None:
        raise Http404
    return found


def new(request: HttpRequest) -> HttpResponse:
    """Hosts only: a tournament, then its screen."""
    if not request.user.is_authenticated or not request.user.is_staff:
        return redirect(f"{reverse('login')}?next={request.path}")
    context = {"games": pages.games_info(), "formats": FORMATS,
               "clocks": [(key, _(label)) for key, _clock, label in pages.CLOCKS],
               "levels": [(key, _(label)) for key, label in pages.LEVELS], "form": request.POST,
               "session": request.POST.get("session") or request.GET.get("session") or ""}
    if request.method != "POST":
        return render(request, "tournaments/new.html", context)
    who = Who.from_request(request)
    post = request.POST
    try:
        clock = pages._read_clock(request)
    except TableError:
        clock = {"kind": "?"}
    try:
        tournament = services.create_tournament(
            who, name=post.get("name", ""), game=post.get("game", ""), format=post.get("format", ""),
            rounds=_int(post.get("rounds"), 3), clock=clock, rated=post.get("rated") == "on",
            guests_allowed=post.get("guests") == "on", bye_bot=post.get("bye_bot", ""),
            table_size=_int(post.get("table_size"), 2), starts_at=_when(post.get("starts_at")),
            round_pause=_int(post.get("round_pause"), 30), duration=_int(post.get("duration"), 0),
            session_id=_int(post.get("session"), None))
    except TournamentError as exc:
        messages.error(request, exc.message)
        return render(request, "tournaments/new.html", context, status=400)
    return redirect("tournaments:screen", tournament.pk)


def _int(raw: Any, default: int | None) -> Any:
    if raw in (None, ""):
        return default
    try:
        return int(raw)
    except (TypeError, ValueError):
        return -1  # refused by the service with its own words


def _when(raw: Any) -> datetime | None:
    if not raw:
        return None
    parsed = parse_datetime(str(raw))
    if parsed is None:
        return timezone.now()  # in the past: refused as "bad_start"
    return timezone.make_aware(parsed) if timezone.is_naive(parsed) else parsed


def _screen_context(request: HttpRequest, t: Tournament) -> dict[str, Any]:
    full = privacy.sees_names(request, t)
    rows = history.standings(t)
    arena = t.format == Tournament.Format.ARENA
    pairings = []
    if t.current_round and t.status == Tournament.Status.RUNNING:
        # A round's tables; in an arena, every table in play (whatever its wave).
        shown = (Pairing.objects.filter(round__tournament=t, recorded_at__isnull=True, bye=False) if arena
                 else Pairing.objects.filter(round__tournament=t, round__number=t.current_round))
        for p in shown.select_related("table").prefetch_related("seats__entrant").order_by("round__number", "board"):
            seats = list(p.seats.all())
            pairings.append({"pairing": p, "seats": seats, "table": p.table if full else None,
                             "links": privacy.table_links(p.table) if full and p.table else None,
                             "done": p.recorded_at is not None,
                             "live": full and p.table is not None and p.recorded_at is None and not p.bye})
    waiting = list(t.entrants.exclude(status=Entrant.Status.LEFT).order_by("joined_at")
                   if t.status == t.Status.OPEN else [])
    _name_them([r.entrant for r in rows] + [s.entrant for p in pairings for s in p["seats"]] + waiting, full)
    join_url = request.build_absolute_uri(reverse("tournaments:code", args=[t.code])) if t.code else ""
    seconds = (max(0, int((t.next_round_at - timezone.now()).total_seconds()))
               if t.next_round_at and t.status == Tournament.Status.RUNNING else None)
    ends_in = (max(0, int((t.ends_at - timezone.now()).total_seconds()))
               if t.ends_at and t.status == Tournament.Status.RUNNING else None)
    return {
        "t": t, "rows": rows, "pairings": pairings, "podium": rows[:3] if t.status == t.Status.FINISHED else [],
        "game": _game_title(t.game), "full_names": full,
        "join_url": join_url, "qr": qr.data_uri(join_url) if join_url else "",
        "next_in": seconds, "ends_in": ends_in, "arena": arena,
        "host": request.user.is_authenticated and request.user.is_staff,
        "total": total_rounds(t, t.entrants.filter(rank__isnull=False).count())
        if t.status != t.Status.OPEN else t.rounds,
        "waiting": waiting,
    }


def _name_them(entrants: list[Entrant], full: bool) -> None:
    """Each entrant's name as this viewer may see it (tournaments.privacy), as ``shown``."""
    for e in entrants:
        e.shown = e.name if full else privacy.initials(e.name)


def _game_title(slug: str) -> str:
    for game in pages.games_info():
        if game["slug"] == slug:
            return game["title"]
    return slug


def screen(request: HttpRequest, pk: int) -> HttpResponse:
    t = _tournament(pk)
    context = _screen_context(request, t)
    context["board_css"] = pages.board_stylesheets(t.game)
    return render(request, "tournaments/screen.html", context)


def results(request: HttpRequest, pk: int) -> HttpResponse:
    """The final table, kept on a page of its own and printable: the podium,
    the standings with their tie-breaks, and every round's games."""
    t = _tournament(pk)
    full = privacy.sees_names(request, t)
    rows = history.standings(t)
    rounds = [{"round": rnd, "games": [{"pairing": p, "seats": list(p.seats.all())} for p in rnd.pairings.all()]}
              for rnd in t.round_set.prefetch_related("pairings__seats__entrant").order_by("number")]
    _name_them([r.entrant for r in rows] + [s.entrant for r in rounds for g in r["games"] for s in g["seats"]], full)
    return render(request, "tournaments/results.html", {
        "t": t, "rows": rows, "podium": rows[:3] if t.status == t.Status.FINISHED else [], "rounds": rounds,
        "game": _game_title(t.game), "arena": t.format == Tournament.Format.ARENA, "full_names": full})


def live(request: HttpRequest, pk: int) -> HttpResponse:
    """The screen's changing part; 204 while the version the screen shows is current."""
    t = _tournament(pk)
    if request.GET.get("v") == str(t.version) and t.next_round_at is None:
        return HttpResponse(status=204)
    response = render(request, "tournaments/_live.html", _screen_context(request, t))
    response["X-Tournament-Version"] = str(t.version)
    return response


def join(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        code = codes.normalise(request.POST.get("code", ""))
        if code:
            return redirect("tournaments:code", code)
    return render(request, "tournaments/join.html", {"live": _live_list(request)})


def _live_list(request: HttpRequest) -> list[Tournament]:
    """Tonight's tournaments (their screens); hosts see a link to create one."""
    return list(Tournament.objects.filter(status__in=[Tournament.Status.OPEN, Tournament.Status.RUNNING])
                .order_by("-created_at")[:20])


def join_code(request: HttpRequest, code: str) -> HttpResponse:
    """A phone with the code: a name (guests), then the entry; back to the
    player's page when already in."""
    code = codes.normalise(code)
    wait = codes.check_rate(request, code)
    if wait is not None:
        response = render(request, "tournaments/join.html", {"limited": True}, status=429)
        response["Retry-After"] = str(wait)
        return response
    t = Tournament.objects.filter(code=code).first() if codes.is_well_formed(code) else None
    if t is None:
        return render(request, "tournaments/join.html", {"unknown": True, "code": code}, status=404)
    codes.remember_opened(request, code)
    privacy.remember(request, t)
    who = Who.from_request(request)
    if services.current_table(t, who)["entered"]:
        return redirect("tournaments:player", t.pk)
    context = {"t": t, "game": _game_title(t.game), "account": request.user.is_authenticated,
               "name": request.session.get(GUEST_NAME_KEY, ""), "max_name": GUEST_NAME_MAX}
    if request.method != "POST":
        return render(request, "tournaments/join.html", context)
    if who.user_id is None:
        raw = " ".join(request.POST.get("name", "").split())
        try:
            name = clean_guest_name(raw)
        except NameTaken:
            messages.error(request, str(ERROR_MESSAGES["name_taken"]))
            return render(request, "tournaments/join.html", context, status=400)
        except ValueError:
            messages.error(request, str(ERROR_MESSAGES["bad_name"]))
            return render(request, "tournaments/join.html", context, status=400)
        request.session[GUEST_NAME_KEY] = name
        if not request.session.session_key:
            request.session.save()
        who = Who.from_request(request)
    try:
        services.join(t.pk, who)
    except TournamentError as exc:
        messages.error(request, exc.message)
        return render(request, "tournaments/join.html", context, status=409)
    return redirect("tournaments:player", t.pk)


def _me(request: HttpRequest, t: Tournament) -> dict[str, Any]:
    answer = services.current_table(t, Who.from_request(request))
    if answer.get("table"):
        answer["table_url"] = reverse("games:table", args=[answer["table"]])
    if answer.get("berserk") == "allowed":
        answer["berserk_url"] = reverse("tournaments:berserk", args=[t.pk])
        answer["berserk_label"] = _("Berserk: half my clock, one point more for a win")
    elif answer.get("berserk") == "done":
        answer["berserk_label"] = _("Berserk!")
    return answer


def player(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's phone between games: where to sit now; it goes there by itself."""
    t = _tournament(pk)
    return render(request, "tournaments/player.html", {"t": t, "me": _me(request, t),
                                                       "game": _game_title(t.game)})


def me(request: HttpRequest, pk: int) -> JsonResponse:
    return JsonResponse(_me(request, _tournament(pk)))


ACTIONS = {
    "start": lambda t, who, post: services.start(t.pk, who),
    "next": lambda t, who, post: services.next_round(t.pk, who, _int(post.get("round"), -1)),
    "cancel": lambda t, who, post: services.cancel(t.pk, who),
    "adjudicate": lambda t, who, post: services.adjudicate(
        t.pk, who, post.get("pairing"), [x for x in post.get("result", "").split("-") if x]),
    "swap": lambda t, who, post: services.swap_players(t.pk, who, *_swap(post)),
    "leave": lambda t, who, post: services.leave(t.pk, who),
    "pause": lambda t, who, post: services.pause(t.pk, who),
    "berserk": lambda t, who, post: services.berserk(t.pk, who),
    "resume": lambda t, who, post: services.resume(t.pk, who),
}
PLAYER_ACTIONS = {"leave", "pause", "resume", "berserk"}


def _swap(post: Any) -> tuple[str, str, list[str]]:
    """The swap form's two choices, each "<entrant>-<pairing>" as the page showed them."""
    first, _sep, seen_first = post.get("first", "").partition("-")
    second, _sep, seen_second = post.get("second", "").partition("-")
    return first, second, [seen_first, seen_second]


@require_POST
def act(request: HttpRequest, pk: int) -> HttpResponse:
    """The buttons: a host's (start, next round, adjudicate, swap, cancel) and a player's (pause, leave)."""
    t = _tournament(pk)
    action = request.POST.get("action", "")
    if action not in ACTIONS:
        return HttpResponse(_("Unknown action."), status=400)
    try:
        ACTIONS[action](t, Who.from_request(request), request.POST)
    except TournamentError as exc:
        messages.error(request, exc.message)
    target = "tournaments:player" if action in PLAYER_ACTIONS else "tournaments:screen"
    return redirect(target, t.pk)


@require_POST
def berserk(request: HttpRequest, pk: int) -> JsonResponse:
    """The table page's berserk button (tournaments/follow.js): JSON either way."""
    t = _tournament(pk)
    try:
        services.berserk(t.pk, Who.from_request(request))
    except TournamentError as exc:
        return JsonResponse({"error": exc.code, "message": exc.message}, status=409)
    return JsonResponse({"ok": True, "label": _("Berserk!")})
