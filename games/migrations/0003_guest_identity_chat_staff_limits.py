"""Guests get an identity of their own; chat messages say whether a host wrote them.

Seats, tables, chat messages and connections named a guest by its session key
(which let anyone who read it take over the session). Each stored session key
is mapped to a new random identity (``g:`` and 32 hex digits); where the
session still exists, the identity is written into it (ludo.guests.GUEST_ID_KEY)
so that the guest keeps their seats. Otherwise the rows just lose the link to
the old key. Token guests (``t:``) already had identities of their own.

Chat messages of staff accounts are marked as the hosts' (``staff``).
"""

import secrets
from importlib import import_module

from django.conf import settings
from django.db import migrations, models

GUEST_ID_KEY = "guest_id"  # ludo.guests.GUEST_ID_KEY, frozen here
KEYED = (("Seat", "guest_key"), ("ChatMessage", "guest_key"), ("Connection", "guest_key"), ("Table", "creator_key"))


def _is_session_key(key: str) -> bool:
    return bool(key) and not key.startswith(("t:", "g:"))


def _write_into_session(store_class, old: str, new: str) -> None:
    if store_class is None:
        return
    store = store_class(session_key=old)
    data = store.load()
    if store.session_key != old or not data:
        return  # expired or gone: nothing to keep
    store[GUEST_ID_KEY] = new
    store.save()


def _session_store():
    engine = getattr(settings, "SESSION_ENGINE", "django.contrib.sessions.backends.db")
    if engine.endswith("signed_cookies"):
        return None  # the data lives in the browser: nothing to write here
    return import_module(engine).SessionStore


def give_guests_identities(apps, schema_editor):
    old_keys: set[str] = set()
    for model_name, field in KEYED:
        model = apps.get_model("games", model_name)
        old_keys.update(k for k in model.objects.values_list(field, flat=True).distinct() if _is_session_key(k))
    if not old_keys:
        return
    store_class = _session_store()
    mapping = {old: "g:" + secrets.token_hex(16) for old in old_keys}
    for old, new in mapping.items():
        for model_name, field in KEYED:
            apps.get_model("games", model_name).objects.filter(**{field: old}).update(**{field: new})
        _write_into_session(store_class, old, new)


def mark_staff_messages(apps, schema_editor):
    ChatMessage = apps.get_model("games", "ChatMessage")
    ChatMessage.objects.filter(user__is_staff=True).update(staff=True)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0002_fewer_table_indexes"),
        ("sessions", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="chatmessage",
            name="staff",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(give_guests_identities, migrations.RunPython.noop),
        migrations.RunPython(mark_staff_messages, migrations.RunPython.noop),
    ]
