"""The pages of live play: the lobby, a table, a replay.

Server-rendered shells. What moves (the list of open tables, the board, the
clocks, the chat) is drawn by the ES modules under static/js/ over the socket
protocol of docs/protocol.md; the forms of the lobby (create a table, play
against a bot now) work without JavaScript and go through ``games.services``
like every other action.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.staticfiles import finders
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_POST

from games import engines, lessons, ratelimit, services
from games.bots.names import bot_name, is_cast_name
from games.engines.base import Option, Rules
from games.models import Seat, Table
from games.protocol import ERROR_MESSAGES, TableError
from games.ratings.eligibility import unconfirmed
from ludo.guests import ensure_guest_name

# Engines declare their option texts in English; these are the same strings,
# marked so that the catalogue holds their translations (a test checks that
# every option of every engine is translated).
OPTION_TEXTS = (
    gettext_noop("Clou 1986 rules"),
    gettext_noop(
        "Free departure onto an own elephant only where it stands alone, and a free "
        "departure that makes an egg on the opponent's first row wins at once."
    ),
    gettext_noop("Starting player"),
    gettext_noop("Who moves first: drawn from the table's seed, or seat 0, or seat 1."),
    gettext_noop("Live auction countdown (seconds)"),
    gettext_noop("In a live auction, the highest bidder wins when nobody raises for this long."),
)
CHOICE_LABELS = {
    ("first_player", "random"): gettext_noop("At random"),
    ("first_player", "0"): gettext_noop("First seat"),
    ("first_player", "1"): gettext_noop("Second seat"),
}

# Time controls offered by the lobby form: (key, clock, label).
CLOCKS = (
    ("none", {"kind": "none"}, gettext_noop("No clock")),
    ("5+3", {"kind": "game", "base": 300, "increment": 3}, gettext_noop("5 minutes + 3 seconds a move")),
    ("10+5", {"kind": "game", "base": 600, "increment": 5}, gettext_noop("10 minutes + 5 seconds a move")),
    ("20+10", {"kind": "game", "base": 1200, "increment": 10},
     gettext_noop("20 minutes + 10 seconds a move")),
    ("1d", {"kind": "move", "days": 1}, gettext_noop("Slow: one day a move")),
    ("3d", {"kind": "move", "days": 3}, gettext_noop("Slow: three days a move")),
)
LEVELS = (
    ("easy", gettext_noop("easy")),
    ("medium", gettext_noop("medium")),
    ("hard", gettext_noop("hard")),
)


def _catalog_games() -> dict[str, Any]:
    """The catalogue's game for each engine slug (its translated title, its rules page)."""
    from catalog.collection.models import Game

    found = {}
    for game in Game.objects.exclude(engine_slug="").order_by("pk"):
        found.setdefault(game.engine_slug, game)
    return found


def _option(option: Option, prefix: str) -> dict[str, Any]:
    choices = [
        {"value": str(value), "label": _(CHOICE_LABELS.get((option.name, str(value)), str(value)))}
        for value in option.choices
    ]
    return {
        "name": option.name,
        "field": f"{prefix}{option.name}",
        "kind": option.kind,
        "default": option.default,
        "label": _(option.label),
        "help": _(option.help) if option.help else "",
        "choices": choices,
        "minimum": option.minimum,
        "maximum": option.maximum,
    }


def quick_seat_choices(rules: Rules) -> tuple[list[int], int]:
    """The player counts quick play offers for a game, and the one preselected: a
    multi-player game (Drekki) gets 3 to its most, 4 by default; a duel game none."""
    if rules.max_players <= 2:
        return [], rules.min_players
    choices = list(range(max(3, rules.min_players), rules.max_players + 1))
    return choices, 4 if 4 in choices else choices[0]


def _game(rules: Rules, catalog: dict[str, Any]) -> dict[str, Any]:
    game = catalog.get(rules.slug)
    quick_choices, quick_default = quick_seat_choices(rules)
    return {
        "slug": rules.slug,
        "title": game.display_title if game else rules.title,
        "rules_url": game.rules_url() if game else "",
        "min_players": rules.min_players,
        "max_players": rules.max_players,
        "seat_choices": list(range(rules.min_players, rules.max_players + 1)),
        "options": [_option(o, f"opt-{rules.slug}-") for o in rules.options],
        "quick_seats": quick_choices,
        "quick_default": quick_default,
        "lesson_url": reverse("games:lesson", args=[rules.slug]) if rules.slug in lessons.available() else "",
    }


def games_info() -> list[dict[str, Any]]:
    """Every playable game with what the lobby and the table pages show of it."""
    catalog = _catalog_games()
    return [_game(rules, catalog) for rules in engines.all()]


def _my_tables(who: services.Who, titles: dict[str, str]) -> list[dict[str, Any]]:
    """The tables ``who`` sits at that are not over: open ones and games in play
    (slow ones included), with whether it is their turn."""
    if who.user_id is not None:
        mine = Q(user_id=who.user_id)
    elif who.guest_key:
        mine = Q(guest_key=who.guest_key, user__isnull=True)
    else:
        return []
    seats = (
        Seat.objects.filter(mine, table__status__in=[Table.Status.OPEN, Table.Status.RUNNING])
        .select_related("table")
        .prefetch_related("table__seats")
        .order_by("-table__updated_at")[:50]
    )
    found = []
    for seat in seats:
        table = seat.table
        to_act: list[int] = []
        if table.status == Table.Status.RUNNING and table.state is not None:
            try:
                rules = engines.get(table.game)
                to_act = list(rules.to_act(rules.load(table.state)))
            except (KeyError, ValueError):
                to_act = []
        names = {s.index: s for s in table.seats.all()}
        waiting_for = [_seat_label(names[i]) for i in to_act if i in names and i != seat.index]
        found.append({
            "id": table.pk,
            "game": titles.get(table.game, table.game),
            "status": table.status,
            "my_turn": seat.index in to_act,
            "waiting_for": waiting_for,
            "clock": table.clock or {"kind": "none"},
            "url": reverse("games:table", args=[table.pk]),
        })
    return found


def _seat_label(seat: Seat) -> str:
    """As the table page says it (static/js/table/format.js seatName): a bot by its
    cast name and level, a seat handed to a bot by its player's name."""
    if seat.is_bot:
        if seat.name and not is_cast_name(seat.name):
            return _("%(name)s (robot)") % {"name": seat.name}
        level = _(dict(LEVELS).get(seat.bot_level, seat.bot_level))
        return _("%(name)s (robot, %(level)s)") % {"name": seat.name or bot_name(seat.bot_level, seat.index),
                                                    "level": level}
    return seat.name or _("free seat")


def lobby(request: HttpRequest) -> HttpResponse:
    who = services.Who.from_request(request)
    games = games_info()
    titles = {g["slug"]: g["title"] for g in games}
    tables = [{**entry, "title": titles.get(entry["game"], entry["game"])}
              for entry in services.lobby_tables()]
    chosen = request.GET.get("game", "")
    if chosen not in {g["slug"] for g in games}:
        chosen = games[0]["slug"] if games else ""
    return render(request, "games/lobby.html", {
        "games": games,
        "chosen": chosen,
        "can_sit": who.can_sit,
        "is_guest": who.user_id is None,
        # The rated choice (games.ratings.eligibility): accounts with a confirmed address.
        "can_rate": who.user_id is not None and not unconfirmed([who.user_id]),
        "tables": tables,
        "my_tables": _my_tables(who, titles),
        "clocks": [(key, _(label)) for key, _clock, label in CLOCKS],
        "levels": [(key, _(label)) for key, label in LEVELS],
        "titles": titles,
        "seat_rows": range(1, max((g["max_players"] for g in games), default=1)),
    })


def _read_options(request: HttpRequest, rules: Rules) -> dict[str, Any]:
    """The options of ``rules`` from the lobby form (missing ones keep their default)."""
    options: dict[str, Any] = {}
    for option in rules.options:
        field = f"opt-{rules.slug}-{option.name}"
        if option.kind == "bool":
            options[option.name] = request.POST.get(field) == "on"
            continue
        raw = request.POST.get(field)
        if raw is None or raw == "":
            continue
        if option.kind == "int":
            try:
                options[option.name] = int(raw)
            except ValueError:
                raise TableError("bad_options", option.name) from None
        else:
            matches = [c for c in option.choices if str(c) == raw]
            options[option.name] = matches[0] if matches else raw
    return options


def _read_clock(request: HttpRequest) -> dict[str, Any]:
    key = request.POST.get("clock", "none")
    for known, clock, _label in CLOCKS:
        if known == key:
            return clock
    raise TableError("bad_clock")


def _form_rules(request: HttpRequest) -> Rules:
    try:
        return engines.get(request.POST.get("game", ""))
    except KeyError:
        raise TableError("unknown_game") from None


def _refused(request: HttpRequest, exc: TableError, game: str = "") -> HttpResponse:
    """Back to the lobby with the reason (the same translated words as the API's)."""
    messages.error(request, str(ERROR_MESSAGES[exc.code]))
    target = reverse("games:play")
    return redirect(f"{target}?{urlencode({'game': game})}#create" if game else target)


@require_POST
def create(request: HttpRequest) -> HttpResponse:
    """The lobby's "create a table" form: the table, its bots, then its page."""
    who = services.Who.from_request(request)
    refusal = ratelimit.http_over(request, who, "table-create")
    if refusal is not None:
        return refusal
    game = request.POST.get("game", "")
    try:
        rules = _form_rules(request)
        try:
            count = int(request.POST.get(f"seats-{rules.slug}") or rules.min_players)
        except ValueError:
            raise TableError("bad_seats") from None
        table = services.create_table(
            who, rules.slug, count, _read_options(request, rules), clock=_read_clock(request),
            private=request.POST.get("private") == "on",
            # Refused (account_required, unconfirmed_account) by the same rules as the API's.
            rated=request.POST.get("rated") == "on",
        )
        by_level: dict[str, list[int]] = {}
        for index in range(1, count):
            level = request.POST.get(f"seat-{index}", "")
            if level in dict(LEVELS):
                by_level.setdefault(level, []).append(index)
        for level, seats in by_level.items():
            services.add_bots(table.pk, who, level, seats)
    except TableError as exc:
        return _refused(request, exc, game)
    return redirect("games:table", table.pk)


def _quick_seats(request: HttpRequest, rules: Rules) -> int | None:
    """The player count quick play asked for (``seats-<slug>``), for games that offer one."""
    choices, default = quick_seat_choices(rules)
    if not choices:
        return None
    raw = request.POST.get(f"seats-{rules.slug}", "")
    if raw == "":
        return default
    try:
        count = int(raw)
    except ValueError:
        raise TableError("bad_seats") from None
    if count not in choices:
        raise TableError("bad_seats")
    return count


@require_POST
def quick(request: HttpRequest) -> HttpResponse:
    """"Play against a bot now", in one click: a started table, the visitor on the first
    seat. A visitor without a name gets a made-up guest name, theirs to change later."""
    game = request.POST.get("game", "")
    try:
        rules = _form_rules(request)
        level = request.POST.get("level", services.DEFAULT_BOT_LEVEL)
        seats = _quick_seats(request, rules)
        # The budget before anything is written (a new visitor counts as its address).
        refusal = ratelimit.http_over(request, services.Who.from_request(request), "table-create")
        if refusal is not None:
            return refusal
        named = ensure_guest_name(request)
        who = services.Who.from_request(request)
        table = services.quick_game(who, rules.slug, level, seats)
    except TableError as exc:
        return _refused(request, exc, game)
    if named:
        messages.info(request, _("You play as %(name)s. You can change this name on the guest page.") % {"name": named})
    return redirect("games:table", table.pk)


def _open(request: HttpRequest, table_id: int) -> tuple[Table, services.Who, str]:
    who = services.Who.from_request(request)
    invite = request.GET.get("invite", "")
    try:
        table, _seat = services.open_table(table_id, who, invite or None)
    except TableError as exc:
        if exc.code == "not_found":
            raise Http404 from None
        raise
    return table, who, invite


def _game_of(table: Table) -> dict[str, Any]:
    for game in games_info():
        if game["slug"] == table.game:
            return game
    raise Http404


def board_stylesheets(slug: str) -> list[str]:
    """The URLs of the board's own stylesheet, static/css/boards-<slug>.css, when the
    game has one (none otherwise: the page asks for no file that is not there).

    The page lists them in data-board-css; the shell loads them before it mounts the
    board (static/js/table/boards.js)."""
    name = f"css/boards-{slug}.css"
    if finders.find(name) is None:
        return []
    try:
        return [static(name)]
    except ValueError:  # a manifest storage that has not collected it
        return []


def table(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        found, who, invite = _open(request, table_id)
    except TableError:
        return HttpResponseForbidden(_("This table is private: ask its players for the invitation link."))
    return render(request, "games/table.html", {
        "table": found,
        "game": _game_of(found),
        "invite": invite,
        "can_sit": who.can_sit,
        "levels": [(key, _(label)) for key, label in LEVELS],
        "board_css": board_stylesheets(found.game),
        **living_context(found),
    })


def living_context(found: Table) -> dict[str, Any]:
    """A living-room table: played pass-and-play on this page, or shown on a screen
    (games.living)."""
    from games.living.services import room_of

    room = room_of(found)
    if room is None:
        return {}
    return {"pass_play": room.mode == "pass", "screen_url": reverse("living:screen", args=[found.pk])
            if room.mode == "screen" else "", "join_code": room.code if room.mode == "screen" else ""}


def replay(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        found, _who, invite = _open(request, table_id)
    except TableError:
        return HttpResponseForbidden(_("This table is private: ask its players for the invitation link."))
    return render(request, "games/replay.html", {
        "table": found,
        "game": _game_of(found),
        "invite": invite,
        "board_css": board_stylesheets(found.game),
    })
