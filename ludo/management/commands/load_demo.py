"""Demo content for `make run`: a demo host account and whatever demo data the apps provide.

Idempotent: running it again changes nothing that is already there. Each of
the project's apps that has demo content exposes a ``demo`` module with
``load(stdout)`` (catalog/demo.py, games/bookings/demo.py...); this command
calls them in INSTALLED_APPS order, so an app's demo can use its dependencies',
after the demo host account (``DEMO_USERNAME``) exists.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.urls import reverse

from ludo.accounts import create_staff_account, sync_hosts_group

DEMO_USERNAME = "hote"
DEMO_PASSWORD = "ludo-demo-hote"


class Command(BaseCommand):
    help = "Load the demo content (catalog, playable games) and create the demo host account."

    def handle(self, *args, **options) -> None:
        sync_hosts_group()
        User = get_user_model()
        demo = User.objects.filter(username=DEMO_USERNAME).first()
        if demo is None:
            # A plain host, not a superuser: the demo shows what the hosts' group allows.
            create_staff_account(DEMO_USERNAME, "hote@ludo.invalid", DEMO_PASSWORD)
        elif not demo.check_password(DEMO_PASSWORD) or not demo.is_staff or not demo.is_active:
            # Someone changed it: put it back, so the credentials printed below work.
            demo.set_password(DEMO_PASSWORD)
            demo.is_staff = demo.is_active = True
            demo.save()
            demo.groups.add(sync_hosts_group())
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
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo host account: username {DEMO_USERNAME!r}, password {DEMO_PASSWORD!r} "
                f"(log in at {settings.SITE_URL}{reverse('login')}, admin at {settings.SITE_URL}{reverse('admin:index')})"
            )
        )
