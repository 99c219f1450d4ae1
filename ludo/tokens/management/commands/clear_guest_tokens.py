from django.core.management.base import BaseCommand

from ludo.tokens.services import clear_idle_guest_tokens, guest_idle_days


class Command(BaseCommand):
    help = "Delete the guest tokens nobody used for LUDO_GUEST_TOKEN_IDLE_DAYS (30 by default); run it daily."

    def handle(self, *args, **options) -> None:
        count = clear_idle_guest_tokens()
        self.stdout.write(f"{count} guest tokens unused for {guest_idle_days()} days deleted")
