"""The JSON HTTP API for tables: the lobby (list, create, join, start), playing
for clients that do not hold a socket (external bots), replays and exports.

Same people, same rules as the pages and the socket: an API token
(``Authorization: Bearer``, docs/api.md) or else the session says who you are
(an account, or a guest with a display name); every check lives in
``games.services``. Session POSTs need Django's CSRF token (the ``csrftoken``
cookie, set by any GET here, sent back in the ``X-CSRFToken`` header); token
requests do not (``ludo.tokens.http.request_who``). Errors are
``{"t": "error", "code": ..., "message": ...}`` with a fitting status.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.exceptions import BadRequest
from django.http import HttpRequest, JsonResponse
from django.utils import translation
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt, ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import engines, ratelimit, services
from games.protocol import MAX_FRAME_BYTES, TableError, frame_for
from ludo import limits
from ludo.params import query_int
from ludo.tokens.http import SAFE_METHODS, Refused, request_who

STATUS = {
    "not_found": 404,
    "no_such_message": 404,
    "private_table": 403,
    "staff_only": 403,
    "not_host": 403,
    "name_required": 403,
    "account_required": 403,
    "unconfirmed_account": 403,
    "not_seated": 403,
    "not_your_seat": 403,
    "stale_version": 409,
    "too_many_tables": 409,
    "rate_limited": 429,
    "frame_too_large": 413,
}


def _body(request: HttpRequest) -> dict[str, Any]:
    if len(request.body) > MAX_FRAME_BYTES:
        raise TableError("frame_too_large")
    if not request.body:
        return {}
    try:
        data = json.loads(request.body)
    except ValueError:
        raise TableError("bad_json") from None
    if not isinstance(data, dict):
        raise TableError("bad_message")
    return data


def _field(data: dict[str, Any], name: str, kind: type | tuple[type, ...], required: bool = False) -> Any:
    value = data.get(name)
    if value is None:
        if required:
            raise TableError("bad_message", f"{name} is required", field=name)
        return None
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise TableError("bad_message", f"{name} has the wrong type", field=name)
    return value


def api(view: Callable[..., Any] | None = None, *, scope: str = "api") -> Any:
    """Turn a view's result (a dict, or (dict, status)) and TableErrors into JSON;
    writes are rate-limited (``scope``, and "api" for all)."""
    if view is None:
        return lambda found: api(found, scope=scope)

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
        try:
            who = request_who(request)  # checks the CSRF token where a cookie says who you are
        except Refused as exc:
            return exc.response
        if request.method not in SAFE_METHODS:
            refusal = ratelimit.http_over(request, who, scope)
            if refusal is not None:
                return refusal
        try:
            result = view(request, who, *args, **kwargs)
        except TableError as exc:
            response = JsonResponse(frame_for(exc, language=translation.get_language()),
                                    status=STATUS.get(exc.code, 400))
            return response
        except BadRequest as exc:  # a query parameter out of range (ludo.params)
            error = TableError("bad_message", str(exc))
            return JsonResponse(frame_for(error, language=translation.get_language()), status=400)
        status = 200
        if isinstance(result, tuple):
            result, status = result
        return JsonResponse(result, status=status, json_dumps_params={"ensure_ascii": False})

    return csrf_exempt(never_cache(wrapper))


# -- the lobby -------------------------------------------------------------------------------------

@require_GET
@ensure_csrf_cookie
@api
def games(request: HttpRequest, who: services.Who) -> dict[str, Any]:
    return {"games": [rules.describe() for rules in engines.all()], "bot_levels": list(services.BOT_LEVELS)}


@require_http_methods(["GET", "POST"])
@ensure_csrf_cookie
@api(scope="table-create")
def tables(request: HttpRequest, who: services.Who) -> Any:
    if request.method == "GET":
        if request.GET.get("all") and who.is_staff:
            return {"tables": services.tables_for_staff()}
        return {"tables": services.lobby_tables()}
    data = _body(request)
    clock = data.get("clock")
    table = services.create_table(
        who,
        _field(data, "game", str, required=True),
        _field(data, "seats", int),
        _field(data, "options", dict),
        rated=bool(_field(data, "rated", bool)),
        private=bool(_field(data, "private", bool)),
        clock=clock,
        sit=_field(data, "sit", bool) is not False,
        absent_bot=_field(data, "absent_bot", str) or "",
        absent_grace=_field(data, "absent_grace", int) or 120,
    )
    return services.snapshot(table.pk, who), 201


@require_POST
@api(scope="table-create")
def quick(request: HttpRequest, who: services.Who) -> Any:
    """"Play against a bot now"."""
    data = _body(request)
    table = services.quick_game(
        who,
        _field(data, "game", str, required=True),
        _field(data, "level", str) or services.DEFAULT_BOT_LEVEL,
        _field(data, "seats", int),
        _field(data, "options", dict),
        data.get("clock"),
    )
    return services.snapshot(table.pk, who), 201


@require_GET
@api
def table(request: HttpRequest, who: services.Who, table_id: int) -> dict[str, Any]:
    services.open_table(table_id, who, request.GET.get("invite"))
    return services.snapshot(table_id, who, query_int(request, "since"))


def _action(perform: Callable[[int, services.Who, dict[str, Any]], Any], scope: str = "api") -> Callable[..., JsonResponse]:
    """A POST on one table: run the service, answer with the table as the caller now sees it."""

    @require_POST
    @api(scope=scope)
    def view(request: HttpRequest, who: services.Who, table_id: int) -> dict[str, Any]:
        result = perform(table_id, who, _body(request))
        snap = services.snapshot(table_id, who)
        return {"result": result, "table": snap}

    return view


join = _action(lambda t, who, d: services.join_table(t, who, _field(d, "seat", int), _field(d, "invite", str)),
               "join")
leave = _action(lambda t, who, d: services.leave_table(t, who))
bots = _action(lambda t, who, d: services.add_bots(t, who, _field(d, "level", str, required=True),
                                                   _field(d, "seats", list)))
start = _action(lambda t, who, d: services.start_table(t, who))
move = _action(lambda t, who, d: services.play_move(t, who, _field(d, "move", str, required=True),
                                                    _field(d, "v", int, required=True), _field(d, "seat", int)))
draw = _action(lambda t, who, d: services.draw(t, who, _choice(d, "action", ("offer", "accept", "decline"))))
resign = _action(lambda t, who, d: services.resign(t, who))
abort = _action(lambda t, who, d: services.abort(t, who))
rematch = _action(lambda t, who, d: services.rematch(t, who), "table-create")
kick = _action(lambda t, who, d: services.kick_absent(t, who, _field(d, "seat", int, required=True)))
chat = _action(lambda t, who, d: services.post_chat(t, who, _field(d, "text", str, required=True),
                                                    _field(d, "invite", str)), "chat")
# The hosts of the house.
end = _action(lambda t, who, d: services.staff_end(t, who, _field(d, "reason", str) or ""))
remove = _action(lambda t, who, d: services.staff_remove(t, who, _field(d, "seat", int, required=True),
                                                         _field(d, "reason", str) or ""))


def _choice(data: dict[str, Any], name: str, choices: tuple[str, ...]) -> str:
    value = _field(data, name, str, required=True)
    if value not in choices:
        raise TableError("bad_message", f"{name} must be one of {', '.join(choices)}", field=name)
    return value


@require_POST
@api
def hide_chat(request: HttpRequest, who: services.Who, message_id: int) -> dict[str, Any]:
    return {"message": services.staff_hide_chat(message_id, who)}


# -- replay and export -----------------------------------------------------------------------------

@require_GET
@api
def replay(request: HttpRequest, who: services.Who, table_id: int) -> dict[str, Any]:
    return services.replay(table_id, who, request.GET.get("invite"))


@require_GET
def export(request: HttpRequest, table_id: int) -> JsonResponse:
    try:
        who = request_who(request)
    except Refused as exc:
        return exc.response
    try:
        data = services.export(table_id, who, request.GET.get("invite"))
    except TableError as exc:
        return JsonResponse(frame_for(exc, language=translation.get_language()), status=STATUS.get(exc.code, 400))
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="ludo-table-{table_id}.json"'
    return response
