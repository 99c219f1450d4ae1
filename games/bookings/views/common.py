"""What the sessions pages share: the hosts-only guard, the visitor's language,
and running a host's action with its message."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language

from games.bookings.errors import BookingError


def hosts_only(view):
    """Staff in the hosts' group (or with the sessions' permissions)."""

    @staff_member_required
    @wraps(view)
    def run(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.has_perm("bookings.change_session"):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return run


def visitor_language() -> str:
    return (get_language() or "fr")[:2]


def act(request: HttpRequest, action: Callable[[], Any], done: str, back: str) -> HttpResponse:
    """Run a host's action; its message (done, or why not), then back to ``back``."""
    try:
        action()
    except BookingError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return redirect(back)


def too_many(request: HttpRequest) -> HttpResponse:
    """The answer once a client has sent a form too often."""
    return render(request, "bookings/too_many.html", status=429)
