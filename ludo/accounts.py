"""People: the hosts' group, staff accounts, guests playing under a display name."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import transaction
from django.http import HttpRequest

# Apps whose every model the hosts manage (catalog, tables, sessions, play log).
HOST_APPS = ("catalog", "games", "bookings", "tokens", "playlog")
GUEST_NAME_KEY = "guest_name"
GUEST_NAME_MAX = 40


def sync_hosts_group(sender: Any = None, **kwargs: Any) -> Group:
    """Create the hosts' group and give it every permission of HOST_APPS.

    Run after each migrate, so models added later are covered without a
    hand-written data migration per model.
    """
    group, _ = Group.objects.get_or_create(name=settings.HOSTS_GROUP)
    perms = Permission.objects.filter(content_type__app_label__in=HOST_APPS)
    group.permissions.add(*perms)
    return group


@transaction.atomic
def create_staff_account(username: str, email: str, password: str, *, superuser: bool = False):
    """A host's account: staff, in the hosts' group; refuses an existing username."""
    User = get_user_model()
    if User.objects.filter(username__iexact=username).exists():
        raise ValueError(f"an account named {username!r} already exists")
    if superuser:
        user = User.objects.create_superuser(username=username, email=email, password=password)
    else:
        user = User.objects.create_user(username=username, email=email, password=password, is_staff=True)
    user.groups.add(sync_hosts_group())
    return user


def clean_guest_name(raw: str) -> str:
    """A display name for a guest: trimmed, single-spaced, 2 to 40 printable characters."""
    name = " ".join((raw or "").split())
    if not 2 <= len(name) <= GUEST_NAME_MAX:
        raise ValueError(f"a display name needs 2 to {GUEST_NAME_MAX} characters")
    if not name.isprintable():
        raise ValueError("a display name cannot hold control characters")
    return name


def display_name(request: HttpRequest) -> str | None:
    """The name the person is known by here: account name, or guest name, or None."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return user.get_username()
    return request.session.get(GUEST_NAME_KEY)
