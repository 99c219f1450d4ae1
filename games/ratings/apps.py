from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    """Ratings per game, leaderboards and player profiles."""

    name = "games.ratings"
    label = "ratings"
    verbose_name = _("Ratings")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.ratings import jobs

        jobs.register()
