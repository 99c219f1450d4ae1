"""Create a host's (staff) account: `manage.py create_staff alice alice@example.org`."""

from __future__ import annotations

import getpass
import os

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email

from ludo.accounts import create_staff_account


class Command(BaseCommand):
    help = "Create a staff account for one of the gîte's hosts (in the 'Hôtes' group)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("email")
        parser.add_argument(
            "--password-env",
            metavar="VAR",
            help="read the password from this environment variable instead of asking for it",
        )
        parser.add_argument("--superuser", action="store_true", help="also give every permission")

    def handle(self, *args, username: str, email: str, password_env: str | None, superuser: bool, **options) -> None:
        try:
            validate_email(email)
        except ValidationError:
            raise CommandError(f"{email!r} is not a valid email address") from None
        if get_user_model().objects.filter(username__iexact=username).exists():
            raise CommandError(f"an account named {username!r} already exists")
        if password_env:
            password = os.environ.get(password_env)
            if not password:
                raise CommandError(f"the environment variable {password_env} is not set or empty")
        else:
            password = getpass.getpass("Password: ")
            if password != getpass.getpass("Password (again): "):
                raise CommandError("the two passwords differ")
        try:
            validate_password(password)
        except ValidationError as exc:
            raise CommandError("password refused: " + " ".join(exc.messages)) from None
        try:
            user = create_staff_account(username, email, password, superuser=superuser)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(self.style.SUCCESS(f"Staff account {user.username!r} created."))
