"""The living room's pages: a new table (on a shared screen, or pass-and-play),
the screen itself, and a phone joining by the code.

The screen page is a spectator's table page with a large board and the join
code; the phone lands on the ordinary table page, seated. Pass-and-play is the
ordinary table page too, told so (games.pages.table reads the room).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from catalog.shelves import qr
from games import engines, pages, ratelimit, services
from games.living import codes
from games.living.models import Room
from games.living.services import (
    MAX_NAME,
    create_pass_table,
    create_screen_table,
    find_room,
    join_by_code,
    room_for_table,
    room_of,
)
from games.protocol import ERROR_MESSAGES, TableError
from ludo.accounts import GUEST_NAME_KEY, GUEST_NAME_MAX, NameTaken, clean_guest_name
from ludo.guests import ensure_guest_name

LEVELS = dict(pages.LEVELS)


def _games() -> list[dict[str, Any]]:
    return pages.games_info()


def new(request: HttpRequest) -> HttpResponse:
    """Choose a game, the seats (people or bots), and where it is played."""
    games = _games()
    context = {
        "games": games,
        "levels": [(key, _(label)) for key, label in pages.LEVELS],
        "seat_rows": range(max((g["max_players"] for g in games), default=2)),
        "chosen": request.POST.get("game") or request.GET.get("game") or (games[0]["slug"] if games else ""),
        "mode": request.POST.get("mode") or request.GET.get("mode") or "screen",
        "max_name": MAX_NAME,
        "clocks": [(key, _(label)) for key, _clock, label in pages.CLOCKS],
    }
    if request.method != "POST":
        return render(request, "living/new.html", context)
    # A table like the lobby's: the same table-create budget, counted first (before any name check).
    ensure_guest_name(request)
    who = services.Who.from_request(request)
    refusal = ratelimit.http_over(request, who, "table-create")
    if refusal is not None:
        return refusal
    try:
        room = _create(request, who)
    except TableError as exc:
        messages.error(request, str(ERROR_MESSAGES[exc.code]))
        return render(request, "living/new.html", context, status=400)
    if room.mode == Room.Mode.PASS:
        return redirect("games:table", room.table_id)
    return redirect("living:screen", room.table_id)


def _create(request: HttpRequest, who: services.Who) -> Room:
    try:
        rules = engines.get(request.POST.get("game", ""))
    except KeyError:
        raise TableError("unknown_game") from None
    try:
        count = int(request.POST.get("seats") or rules.min_players)
    except ValueError:
        raise TableError("bad_seats") from None
    if not rules.min_players <= count <= rules.max_players:
        raise TableError("bad_seats")
    kinds = [request.POST.get(f"seat-{i}", "person") for i in range(count)]
    if any(kind != "person" and kind not in LEVELS for kind in kinds):
        raise TableError("bad_level")
    if request.POST.get("mode") == Room.Mode.PASS:
        names = [request.POST.get(f"name-{i}", "") if kind == "person" else None for i, kind in enumerate(kinds)]
        levels = [kind for kind in kinds if kind != "person"]
        return create_pass_table(who, rules.slug, names, levels[0] if levels else "easy")
    bots = {i: kind for i, kind in enumerate(kinds) if kind != "person"}
    if len(bots) == count:
        raise TableError("seats_empty")
    return create_screen_table(who, rules.slug, count, bots, clock=pages._read_clock(request))


def screen(request: HttpRequest, table_id: int) -> HttpResponse:
    """The shared screen: the table as a spectator sees it, large, with the join code."""
    try:
        table, who, _invite = pages._open(request, table_id)
    except TableError:
        return HttpResponseForbidden(_("This table is private: ask its players for the invitation link."))
    room = room_of(table)
    if room is None or room.mode != Room.Mode.SCREEN:
        raise Http404
    # An ended table's code has been freed: nothing to join any more.
    join_url = request.build_absolute_uri(reverse("living:code", args=[room.code])) if room.code else ""
    return render(request, "games/table.html", {
        "screen": True,
        "table": table,
        "game": pages._game_of(table),
        "room": room,
        "code": room.code or "",
        "join_url": join_url,
        "join_short": request.build_absolute_uri(reverse("living:join")),
        "qr": qr.data_uri(join_url) if join_url else "",
        "can_sit": False,
        "levels": [(key, _(label)) for key, label in pages.LEVELS],
        "board_css": pages.board_stylesheets(table.game),
    })


def _limited(request: HttpRequest, code: str) -> HttpResponse | None:
    wait = codes.check_rate(request, codes.normalise(code))
    if wait is None:
        return None
    response = render(request, "living/join.html", {"limited": True, "wait_minutes": max(1, wait // 60)},
                      status=429)
    response["Retry-After"] = str(wait)
    return response


def join(request: HttpRequest) -> HttpResponse:
    """A phone types the code shown on the screen."""
    if request.method == "POST":
        code = codes.normalise(request.POST.get("code", ""))
        if code:
            return redirect("living:code", code)
    return render(request, "living/join.html", {})


def join_code(request: HttpRequest, code: str) -> HttpResponse:
    """The code's table: a name, then the seat (back to it when it is already theirs)."""
    limited = _limited(request, code)
    if limited is not None:
        return limited
    try:
        room = find_room(code)
    except TableError:
        return render(request, "living/join.html", {"unknown": True, "code": code}, status=404)
    codes.remember_opened(request, room.code)
    who = services.Who.from_request(request)
    table = room.table
    target = reverse("games:table", args=[table.pk])
    if table.private:
        target += f"?invite={table.invite_token}"
    if request.method == "POST":
        if who.user_id is None:
            raw = " ".join(request.POST.get("name", "").split())
            if not raw:
                messages.error(request, str(ERROR_MESSAGES["name_required"]))
                return _name_form(request, room, status=400)
            try:  # the guest form's rules: no account's or the house's name
                name = clean_guest_name(raw[:MAX_NAME])
            except NameTaken:
                messages.error(request, _("This name belongs to an account or to the house: choose another one."))
                return _name_form(request, room, status=400)
            except ValueError:
                messages.error(request, _("A display name needs 2 to %(max)d printable characters.")
                               % {"max": GUEST_NAME_MAX})
                return _name_form(request, room, status=400)
            request.session[GUEST_NAME_KEY] = name
            if not request.session.session_key:
                request.session.save()
            who = services.Who.from_request(request)
        try:
            join_by_code(room.code, who)
        except TableError as exc:
            messages.error(request, str(ERROR_MESSAGES[exc.code]))
            return _name_form(request, room, status=409)
        return redirect(target)
    try:
        _table, seat = services.open_table(table.pk, who, table.invite_token)
    except TableError:
        seat = None
    if seat is not None:  # the phone came back: straight to its seat
        return redirect(target)
    return _name_form(request, room)


def _name_form(request: HttpRequest, room: Room, status: int = 200) -> HttpResponse:
    table = room.table
    return render(request, "living/join.html", {
        "room": room,
        "game": pages._game_of(table),
        "name": request.session.get(GUEST_NAME_KEY, ""),
        "account": request.user.is_authenticated,
        "free": table.seats.filter(user__isnull=True, guest_key="", bot_level="").count(),
        "open": table.status == table.Status.OPEN,
        "max_name": MAX_NAME,
    }, status=status)


@require_POST
def from_session(request: HttpRequest, pk: int) -> HttpResponse:
    """The session page's button: the booked session's table on this screen, in one click."""
    from games.bookings.errors import BookingError
    from games.bookings.models import Session
    from games.bookings.services.live_table import open_live_table

    if not request.user.is_authenticated or not request.user.has_perm("bookings.change_session"):
        return HttpResponseForbidden(_("Only the hosts can do that."))
    session = Session.objects.filter(pk=pk).first()
    if session is None:
        raise Http404
    if session.table_id is None:
        try:
            open_live_table(pk, request.user, request.POST.get("game") or None)
        except BookingError as exc:
            messages.error(request, str(exc))
            return redirect(session.staff_url())
        session.refresh_from_db()
    room = room_for_table(session.table)
    return redirect("living:screen", room.table_id)
