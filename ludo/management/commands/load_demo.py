"""Demo content for `make run`: a demo host account and whatever demo data the apps provide.

Idempotent: running it again changes nothing that is already there. Each app
that has demo content exposes a ``demo`` module with ``load(stdout)``; this
command calls them in order.
"""

from __future__ import annotations

import importlib

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

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
        if not User.objects.filter(username=DEMO_USERNAME).exists():
            create_staff_account(DEMO_USERNAME, "hote@ludo.invalid", DEMO_PASSWORD, superuser=True)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo host account: username {DEMO_USERNAME!r}, password {DEMO_PASSWORD!r} "
                "(log in at http://127.0.0.1:8000/compte/connexion/, admin at /admin/)"
            )
        )
