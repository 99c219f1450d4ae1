"""Tokens over HTTP: ``POST /api/guest``, ``GET /api/me``, and the auth step of
the JSON API (:func:`request_who`), which games/api.py calls for every request.

A request with ``Authorization: Bearer <token>`` is the token's person and no
one else: its cookies are ignored, so it needs no CSRF token (a browser never
adds that header by itself). Without one, the session says who you are, and a
POST must carry Django's CSRF token, as before. Tokens work on the JSON API
and the sockets only: pages and the admin never look at them.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from games.services import Who
from ludo import limits
from ludo.accounts import GUEST_NAME_MAX
from ludo.client_ip import client_ip
from ludo.tokens import services
from ludo.tokens.models import GuestToken

MAX_BODY_BYTES = 4096
SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")

ERRORS: dict[str, tuple[int, Any]] = {
    "bad_authorization": (401, _("Send a token as the header “Authorization: Bearer <token>”.")),
    "invalid_token": (401, _("This token is unknown, revoked or expired.")),
    "bad_json": (400, _("The body is not valid JSON.")),
    "bad_message": (400, _("The body must be a JSON object.")),
    "bad_name": (400, _("A display name needs 2 to %(max)d printable characters.")),
    "name_taken": (409, _("This name belongs to an account or to the house: choose another one.")),
    "frame_too_large": (413, _("The body is too large.")),
    "rate_limited": (429, _("Too many guest tokens were asked from your address. Try again later.")),
    "method_not_allowed": (405, _("This address only answers POST.")),
}


def error_response(code: str, detail: str = "", **headers: str) -> JsonResponse:
    """The API's error shape ({"t": "error", "code", "message"}), with its status."""
    status, message = ERRORS[code]
    body: dict[str, Any] = {"t": "error", "code": code, "message": str(message) % {"max": GUEST_NAME_MAX}}
    if detail:
        body["detail"] = detail
    response = JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})
    if status == 401:
        error = "invalid_request" if code == "bad_authorization" else "invalid_token"
        response["WWW-Authenticate"] = f'Bearer realm="ludo", error="{error}"'
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


class Refused(Exception):
    """The request cannot go on; ``response`` says why."""

    def __init__(self, response: Any) -> None:
        super().__init__(getattr(response, "status_code", None))
        self.response = response


def bearer_token(header: str) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None for another scheme."""
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return value.strip()


def request_who(request: HttpRequest) -> Who:
    """Who is asking the JSON API: the bearer token's person, else the session's.

    Raises Refused with a 401 for a malformed, unknown, revoked or expired
    token, and with Django's CSRF refusal for a session POST without the CSRF
    token (the API's views are exempted from the middleware's check, which
    runs here instead, only where a cookie says who you are).
    """
    header = request.headers.get("Authorization")
    token = bearer_token(header) if header else None
    if token is None:
        if request.method not in SAFE_METHODS:
            refusal = CsrfViewMiddleware(lambda r: None).process_view(request, None, (), {})
            if refusal is not None:
                raise Refused(refusal)
        return Who.from_request(request)
    if not token:
        raise Refused(error_response("bad_authorization"))
    bearer = services.authenticate(token)
    if bearer is None:
        raise Refused(error_response("invalid_token"))
    request.bearer = bearer
    return bearer.who()


# -- the endpoints ------------------------------------------------------------------------------

def guest_token_rate() -> limits.Rate:
    """Guest tokens per client address (LUDO_GUEST_TOKEN_RATE_LIMIT), over every server process."""
    limit, period = getattr(settings, "LUDO_GUEST_TOKEN_RATE_LIMIT", (10, 3600.0))
    return int(limit), float(period)


def _json_object(request: HttpRequest) -> dict[str, Any]:
    if len(request.body) > MAX_BODY_BYTES:
        raise Refused(error_response("frame_too_large"))
    try:
        data = json.loads(request.body or b"null")
    except ValueError:
        raise Refused(error_response("bad_json")) from None
    if not isinstance(data, dict):
        raise Refused(error_response("bad_message"))
    return data


@csrf_exempt
@never_cache
def guest(request: HttpRequest) -> JsonResponse:
    """``POST /api/guest`` with ``{"name": "Zoé"}``: a new guest identity and its token.

    Exempt from CSRF: it reads no cookie and acts for nobody who exists yet.
    Every request with a name counts against the address's limit, checked before
    the name is (the check reads every account's name: a flood must not buy that
    work), a name that is an account's too: nobody may list the accounts by asking.
    """
    if request.method != "POST":
        return error_response("method_not_allowed", Allow="POST")
    try:
        data = _json_object(request)
    except Refused as exc:
        return exc.response
    raw_name = data.get("name")
    if not isinstance(raw_name, str):
        return error_response("bad_name", "name is required (a string)")
    budget = limits.client_address(request)
    verdict = limits.allow("guest-token:address", budget, limits.rate_for("guest-token", "address", guest_token_rate()))
    if not verdict:
        return error_response("rate_limited", Retry_After=str(verdict.retry_seconds))
    try:
        # The address itself is kept on the token (the budget counts its /64).
        row, token = services.create_guest_token(raw_name, client_ip(request) or None)
    except services.TokenError as exc:
        return error_response(exc.code, str(exc))
    return JsonResponse(
        {"token": token, "token_type": "Bearer", "kind": "guest", "name": row.display_name,
         "prefix": row.shown, "idle_days": services.guest_idle_days()},
        status=201, json_dumps_params={"ensure_ascii": False},
    )


@never_cache
def me(request: HttpRequest) -> JsonResponse:
    """``GET /api/me``: who the API takes you for (check a token with it)."""
    try:
        who = request_who(request)
    except Refused as exc:
        return exc.response
    bearer = getattr(request, "bearer", None)
    kind = "account" if who.user_id is not None else "guest" if who.guest_key else "anonymous"
    token = None
    if bearer is not None:
        token = {"kind": "guest" if isinstance(bearer.token, GuestToken) else "personal", "prefix": bearer.token.shown}
    return JsonResponse(
        {"kind": kind, "name": who.name or None, "staff": who.is_staff, "can_sit": who.can_sit, "token": token},
        json_dumps_params={"ensure_ascii": False},
    )
