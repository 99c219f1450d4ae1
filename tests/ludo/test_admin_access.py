"""Hosts (staff in the "Hôtes" group) reach the admin; players and guests do not."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command

from ludo.accounts import HOST_APPS

pytestmark = pytest.mark.django_db


def test_it_lets_a_host_into_the_admin(client, alice):
    client.force_login(alice)
    response = client.get("/admin/")
    assert response.status_code == 200
    assert alice.groups.filter(name="Hôtes").exists()


def test_it_keeps_a_player_out_of_the_admin(client, bob):
    client.force_login(bob)
    response = client.get("/admin/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
    assert client.get("/admin/auth/user/").status_code == 302


def test_it_keeps_anonymous_visitors_out_of_the_admin(client):
    assert client.get("/admin/").status_code == 302


def test_it_shows_the_admin_link_to_hosts_only(client, alice, bob):
    client.force_login(bob)
    assert 'href="/admin/"' not in client.get("/").content.decode()
    client.force_login(alice)
    assert 'href="/admin/"' in client.get("/").content.decode()


@pytest.mark.django_db(transaction=True)
def test_it_gives_the_hosts_group_every_catalog_and_games_permission_after_migrate():
    group, _ = Group.objects.get_or_create(name="Hôtes")
    group.permissions.clear()
    call_command("migrate", verbosity=0)
    wanted = set(Permission.objects.filter(content_type__app_label__in=HOST_APPS).values_list("pk", flat=True))
    assert set(group.permissions.values_list("pk", flat=True)) >= wanted
    assert not group.permissions.exclude(content_type__app_label__in=HOST_APPS).exists()


def test_it_creates_a_staff_account_with_the_command(monkeypatch):
    from django.contrib.auth import get_user_model

    monkeypatch.setenv("HOST_PASSWORD", "a long enough host passphrase")
    call_command("create_staff", "denise", "denise@example.org", "--password-env", "HOST_PASSWORD")
    denise = get_user_model().objects.get(username="denise")
    assert denise.is_staff and not denise.is_superuser
    assert denise.groups.filter(name="Hôtes").exists()
    assert denise.check_password("a long enough host passphrase")


@pytest.mark.parametrize(
    "args, message",
    [
        (["erin", "not-an-email"], "not a valid email"),
        (["alice", "a@example.org"], "already exists"),
        (["erin", "e@example.org", "--password-env", "MISSING_VAR"], "MISSING_VAR is not set"),
    ],
)
def test_it_refuses_bad_staff_accounts(alice, args, message):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match=message):
        call_command("create_staff", *args)


def test_it_refuses_a_weak_staff_password(monkeypatch):
    from django.contrib.auth import get_user_model
    from django.core.management.base import CommandError

    monkeypatch.setenv("HOST_PASSWORD", "short")
    with pytest.raises(CommandError, match="password refused"):
        call_command("create_staff", "erin", "e@example.org", "--password-env", "HOST_PASSWORD")
    assert not get_user_model().objects.filter(username="erin").exists()


def test_it_loads_the_demo_host_again_and_again(capsys, settings, monkeypatch):
    from django.contrib.auth import get_user_model

    from ludo.management.commands import load_demo

    settings.DEBUG = True  # a development machine (with DEBUG off, see tests/ludo/test_load_demo_guard.py)
    # The host account is this test's subject; the apps' demo content (the catalogue's
    # thousands of games, the rulebooks' OCR: 10-20 s a load) is tests/catalog/test_demo.py's.
    monkeypatch.setattr(load_demo.Command, "_load_apps", lambda self: None)
    call_command("load_demo")
    call_command("load_demo")
    host = get_user_model().objects.get(username="hote")
    assert host.is_staff and host.check_password("ludo-demo-hote")
    assert "ludo-demo-hote" in capsys.readouterr().out
