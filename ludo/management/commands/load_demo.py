"""Demo content for `make run`: a demo host account and whatever demo data the apps provide.

Idempotent: running it again changes nothing that is already there. Each app
that has demo content exposes a ``demo`` module with ``load(stdout)``; this
command calls them in order.
"""

from __future__ import annotations

import importlib

from django.contrib.auth import get_user_model
from django.conf import settings
from django.core.management.base import BaseCommand
from django.urls import reverse

from ludo.accounts import create_staff_account, sync_hosts_group

DEMO_USERNAME = "hote"
DEMO_PASSWORD = "ludo-demo-hote"
DEMO_APPS = ("catalog", "games")


class Command(BaseCommand):
    help = "Load the demo content (catalog, playable games) and create the demo host account."

    def handle(self, *args, **options) -> None:
        sync_hosts_group()
        for app in DEMO_APPS:
            try:
                module = importlib.import_module(f"{app}.demo")
            except ModuleNotFoundError as exc:
                if exc.name != f"{app}.demo":
                    raise
                continue
            module.load(self.stdout)
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
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo host account: username {DEMO_USERNAME!r}, password {DEMO_PASSWORD!r} "
                f"(log in at {settings.SITE_URL}{reverse('login')}, admin at {settings.SITE_URL}{reverse('admin:index')})"
            )
        )
