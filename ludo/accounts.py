"""People: the hosts' group, staff accounts, guests playing under a display name."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import transaction
from django.http import HttpRequest

# Apps whose every model the hosts manage (catalog, tables, sessions, play log).
HOST_APPS = ("catalog", "games", "bookings", "tokens", "playlog", "bulkheads", "boxes")
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
    """A display name for a guest or a seat: trimmed, single-spaced, 2 to 40
    printable characters without direction or invisible controls, and not an
    account's or the house's (:class:`NameTaken`)."""
    name = " ".join(unicodedata.normalize("NFC", raw or "").split())
    if not 2 <= len(name) <= GUEST_NAME_MAX:
        raise ValueError(f"a display name needs 2 to {GUEST_NAME_MAX} characters")
    if has_hidden_characters(name) or not name.isprintable():
        raise ValueError("a display name cannot hold control, direction or invisible characters")
    if name_is_reserved(name):
        raise NameTaken(f"{name!r} belongs to an account or to the house")
    return name


# Characters that change how the text around them reads without being seen: the bidi
# embeddings, overrides and isolates (a name "\u202eetôh" shows as "hôte"), the Arabic
# letter mark, zero-width spaces and joiners, the word joiner and invisible operators,
# the byte order mark. Unicode's "format" category (Cf) holds all of them.
_HIDDEN = frozenset("\u061c\u115f\u1160\u180e\u3164\uffa0")


def has_hidden_characters(name: str) -> bool:
    """Whether ``name`` holds a bidi control, an invisible or a format character."""
    return any(ch in _HIDDEN or unicodedata.category(ch) in ("Cf", "Cc", "Co", "Cs", "Cn") for ch in name)


# -- names guests cannot take -------------------------------------------------------------------

class NameTaken(ValueError):
    """A guest asked for a name that an account, or the house, goes by."""


# The house's own words, in the folded form of name_skeleton: a guest called "Hôte",
# "h0te", "L'hôte" or "ADMIN" would look like one of the hosts in the chat.
# "deleted" and "supprime": a deleted account's place ("Compte supprimé", ``deleted:<id>``).
RESERVED_NAMES = frozenset({
    "hote", "hotes", "hotesse", "host", "hosts", "admin", "admins", "administrateur", "administrator",
    "staff", "moderateur", "moderator", "modo", "ludo", "systeme", "system", "root", "support",
    "deleted", "supprime", "deletedaccount", "comptesupprime",
})
# Letters that look like Latin ones (Cyrillic, Greek), and digits and signs written for letters.
_LOOKALIKES = str.maketrans({
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "н": "h", "һ": "h", "т": "t",
    "і": "i", "ѕ": "s", "ԁ": "d", "м": "m", "ο": "o", "α": "a", "τ": "t", "ε": "e", "ι": "i", "η": "n",
    "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i",
})


def name_skeleton(name: str) -> str:
    """A name as it looks: no accents, no case, lookalike letters and digits read as
    Latin letters, only letters left ("H0té" and "hote" give the same)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return "".join(ch for ch in plain.translate(_LOOKALIKES) if ch.isalnum())


def _words(name: str) -> list[str]:
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return [w for w in re.split(r"[^\w@$!]+|_", plain) if w]


def name_is_reserved(name: str) -> bool:
    """Whether a guest may not call itself ``name``: the house's words (as the whole
    name or one of its words, trailing digits aside: "Hôte 2", "l'admin",
    "deleted-42"), or an existing account's username, whatever the case, accents
    or lookalikes (one indexed lookup of its skeleton, ludo.models.NameSkeleton)."""
    from ludo.models import NameSkeleton

    words = _words(name)
    for candidate in [*words, "".join(words)]:
        for variant in (candidate, candidate.rstrip("0123456789")):
            if name_skeleton(variant) in RESERVED_NAMES:
                return True
    wanted = name_skeleton(name)
    if not wanted:
        return False
    return NameSkeleton.objects.filter(skeleton=wanted[:150]).exists()


def remember_name_skeleton(sender: Any, instance: Any, created: bool = False, update_fields: Any = None,
                           raw: bool = False, **kwargs: Any) -> None:
    """post_save of the user model: keep the account's NameSkeleton (saves that
    name other fields, a login's last_login, write nothing)."""
    from ludo.models import NameSkeleton

    if raw or (update_fields is not None and "username" not in update_fields):
        return
    skeleton = name_skeleton(instance.get_username())[:150]
    NameSkeleton.objects.update_or_create(user_id=instance.pk, defaults={"skeleton": skeleton})


def is_confirmed(user: Any) -> bool:
    """Whether an account has shown that its current email address is its own
    (a confirmation link followed, see games.bookings' VerifiedAddress), or is a
    host's. Rated games and direct bookings need it."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if user.is_staff:
        return True
    from games.bookings.models import VerifiedAddress

    email = (user.email or "").strip()
    return bool(email) and VerifiedAddress.objects.filter(user=user, email__iexact=email).exists()


def address_confirmed_elsewhere(email: str, user: Any) -> bool:
    """Whether an account other than ``user`` has confirmed ``email`` (then it is never
    confirmed for a second one)."""
    from games.bookings.models import VerifiedAddress

    return VerifiedAddress.objects.filter(email__iexact=email.strip()).exclude(user_id=user.pk).exists()


def remember_address(user: Any, email: str, now: Any = None) -> bool:
    """``user`` showed ``email`` is its own (a link sent there followed): remember it,
    unless another account confirmed it first (then False, nothing stored). Call it
    inside a transaction: on PostgreSQL the address is locked for the rest of it (an
    advisory lock on its hash), so two accounts confirming it at the same moment cannot
    both get it; SQLite has one writer at a time."""
    from django.db import connection
    from django.utils import timezone

    from games.bookings.models import VerifiedAddress

    email = (email or "").strip()
    if not email or user is None or not getattr(user, "is_authenticated", False):
        return False
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", ["ludo.address:" + email.lower()])
    if address_confirmed_elsewhere(email, user):
        return False
    # Lower-case, as the bookings store and compare addresses (games.bookings.services.inputs).
    VerifiedAddress.objects.get_or_create(user=user, email=email.lower(),
                                          defaults={"verified_at": now or timezone.now()})
    return True


def display_name(request: HttpRequest) -> str | None:
    """The name the person is known by here: account name, or guest name, or None."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return user.get_username()
    return request.session.get(GUEST_NAME_KEY)
