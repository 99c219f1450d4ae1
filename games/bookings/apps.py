from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class BookingsConfig(AppConfig):
    """Sessions at the gîte: time slots to play there, bookings and waiting lists."""

    name = "games.bookings"
    label = "bookings"
    verbose_name = _("Sessions at the house")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.bookings import jobs, seatguard

        post_migrate.connect(seatguard.post_migrate, sender=self, dispatch_uid="bookings-seat-guard")
        jobs.register()
