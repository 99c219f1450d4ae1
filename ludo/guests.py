"""Guest names made up for one-click play: the visitor plays at once and may rename
themselves later on the guest page (the name lives in the session, as one chosen)."""

from __future__ import annotations

import secrets

from django.http import HttpRequest
from django.utils.translation import gettext as _

from ludo.accounts import GUEST_NAME_KEY


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
    if not session.session_key:
        session.save()
    return name
