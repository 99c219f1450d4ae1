"""Demo content for `make run`: a demo host account and whatever demo data the apps provide.

Idempotent: running it again changes nothing that is already there. Each of
the project's apps that has demo content exposes a ``demo`` module with
``load(stdout)`` (catalog/demo.py, games/bookings/demo.py...); this command
calls them in INSTALLED_APPS order, so an app's demo can use its dependencies',
after the demo host account (``DEMO_USERNAME``) exists.

With DEBUG off (a production-like site) it refuses to run, changing nothing,
unless ``--force-demo`` is given. Even then the published demo password is never
put on an account: an existing demo account is left exactly as it is (password,
staff status, groups), and a missing one is created with a random password that
is printed once. Only with DEBUG on (development) is the demo account made to
match the published credentials again.
"""

from __future__ import annotations

import importlib
import secrets
import sys
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from ludo.accounts import create_staff_account, sync_hosts_group

DEMO_USERNAME = "hote"
DEMO_PASSWORD = "ludo-demo-hote"


class Command(BaseCommand):
    help = "Load the demo content (catalog, playable games) and create the demo host account."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--force-demo", action="store_true",
            help="load the demo content even with DEBUG off (the demo account then never gets the published password)",
        )

    def handle(self, *args, force_demo: bool = False, **options) -> None:
        if not settings.DEBUG and not force_demo:
            raise CommandError(
                "DEBUG is off: this looks like a production site, and load_demo adds demo content and a demo "
                "host account. Nothing was changed. Give --force-demo to load it anyway (the demo account then "
                "gets a random password, never the published one)."
            )
        sync_hosts_group()
        password = self._demo_account()
        self._load_apps()
        if password is None:
            self.stdout.write(
                f"Demo host account {DEMO_USERNAME!r} already exists: left as it is (DEBUG is off, its password "
                "was not touched)."
            )
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo host account: username {DEMO_USERNAME!r}, password {password!r} "
                f"(log in at {settings.SITE_URL}{reverse('login')}, admin at {settings.SITE_URL}{reverse('admin:index')})"
            )
        )

    def _demo_account(self) -> str | None:
        """The demo account's password to print, or None when it was left alone."""
        User = get_user_model()
        demo = User.objects.filter(username=DEMO_USERNAME).first()
        if not settings.DEBUG:
            if demo is not None:
                return None
            password = secrets.token_urlsafe(18)
            create_staff_account(DEMO_USERNAME, "hote@ludo.invalid", password)
            return password
        if demo is None:
            # A plain host, not a superuser: the demo shows what the hosts' group allows.
            create_staff_account(DEMO_USERNAME, "hote@ludo.invalid", DEMO_PASSWORD)
        elif not demo.check_password(DEMO_PASSWORD) or not demo.is_staff or not demo.is_active:
            # Someone changed it: put it back, so the credentials printed below work.
            demo.set_password(DEMO_PASSWORD)
            demo.is_staff = demo.is_active = True
            demo.save()
            demo.groups.add(sync_hosts_group())
        return DEMO_PASSWORD

    def _load_apps(self) -> None:
        for config in apps.get_app_configs():
            path = Path(config.path)
            if not path.is_relative_to(settings.BASE_DIR) or path.is_relative_to(sys.prefix):
                continue  # Django's and third-party apps (the virtualenv may sit in the project)
            try:
                module = importlib.import_module(f"{config.name}.demo")
            except ModuleNotFoundError as exc:
                if exc.name != f"{config.name}.demo":
                    raise
                continue
            module.load(self.stdout)
