"""load_demo on a production-like site (DEBUG off): refused without --force-demo,
and never the published demo password on an account (issue 18, finding 7)."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from catalog.collection.models import Game
from ludo.accounts import create_staff_account
from ludo.management.commands.load_demo import DEMO_PASSWORD, DEMO_USERNAME

pytestmark = pytest.mark.django_db

CHANGED = "a-long-private-passphrase-42"


@pytest.fixture(autouse=True)
def production(settings, monkeypatch, tmp_path):
    settings.DEBUG = False
    monkeypatch.setenv("LUDO_SHARED_DIR", str(tmp_path / "nowhere"))  # the boxes only: quick


def test_with_debug_off_it_refuses_and_changes_nothing():
    host = create_staff_account(DEMO_USERNAME, "hote@example.org", CHANGED)
    with pytest.raises(CommandError, match="DEBUG is off.*Nothing was changed.*--force-demo"):
        call_command("load_demo", stdout=io.StringIO())
    host.refresh_from_db()
    assert host.check_password(CHANGED) and not Game.objects.exists()


def test_forced_it_never_puts_the_published_password_back():
    host = create_staff_account(DEMO_USERNAME, "hote@example.org", CHANGED)
    out = io.StringIO()
    call_command("load_demo", "--force-demo", stdout=out)
    host.refresh_from_db()
    assert host.check_password(CHANGED) and not host.check_password(DEMO_PASSWORD)
    assert Game.objects.filter(slug="drumlin").exists()
    assert "left as it is" in out.getvalue() and DEMO_PASSWORD not in out.getvalue()


def test_forced_on_a_fresh_site_the_demo_account_gets_a_random_password():
    out = io.StringIO()
    call_command("load_demo", "--force-demo", stdout=out)
    host = get_user_model().objects.get(username=DEMO_USERNAME)
    assert host.is_staff and not host.check_password(DEMO_PASSWORD)
    assert DEMO_PASSWORD not in out.getvalue() and "password '" in out.getvalue()
