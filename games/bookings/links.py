"""The addresses of sessions and their live tables, as pages and emails give them.

Used by the emails and by the pages alike (so neither imports the other).
"""

from __future__ import annotations

from typing import Any

from django.urls import NoReverseMatch, reverse

from games.bookings import conf


def absolute(path: str) -> str:
    """A site path as a full address (for emails and calendars)."""
    return conf.site_url() + path


def public_url(session: Any) -> str:
    """The session's page as its guests reach it (with the invitation key when it takes one)."""
    return session.get_absolute_url() if session.visibility == "public" else session.invitation_url()


def table_link(session: Any) -> str | None:
    """The live table's invitation link, once the table pages exist."""
    if session.table_id is None:
        return None
    try:
        url = reverse("games:table", args=[session.table_id])
    except NoReverseMatch:
        return None
    return f"{url}?invite={session.table.invite_token}"
