"""Guests: their identity, and the names made up for one-click play.

A guest's identity is ``g:`` and 32 random hex digits, kept in the session under
GUEST_ID_KEY: seats, chat messages, connections and tables name the guest by it,
never by the session key (which would let whoever reads it, a host in the
admin, take over the session). It is made on first need and stays for the
session's life; logging in keeps the session's data, so it keeps it too.

One-click play gives a visitor without a name a made-up one: they play at once and
may rename themselves later on the guest page (the name lives in the session, as
one chosen).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from ludo.accounts import GUEST_NAME_KEY

GUEST_ID_KEY = "guest_id"


def new_guest_id() -> str:
    return "g:" + secrets.token_hex(16)


def guest_id(session: Any, create: bool = False) -> str:
    """The session's guest identity; with ``create``, one is made if it has none
    (the caller, or the session middleware, saves the session)."""
    if session is None:
        return ""
    found = session.get(GUEST_ID_KEY) or ""
    if not found and create:
        found = session[GUEST_ID_KEY] = new_guest_id()
    return found


def generated_name() -> str:
    """"Invité 4821" / "Guest 4821": four digits, so that two guests at a table differ."""
    return _("Guest %(number)s") % {"number": 1000 + secrets.randbelow(9000)}


def ensure_guest_name(request: HttpRequest) -> str | None:
    """Give an anonymous visitor without a name a generated one (and a session to keep
    it in); return the new name, or None when nothing had to change."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return None
    session = request.session
    if session.get(GUEST_NAME_KEY) and session.session_key:
        return None
    name = session.get(GUEST_NAME_KEY) or generated_name()
    session[GUEST_NAME_KEY] = name
    guest_id(session, create=True)
    if not session.session_key:
        session.save()
    return name
