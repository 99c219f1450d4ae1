from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlaylogConfig(AppConfig):
    """The play log at the house: what was played on the physical boxes, by whom, who won."""

    name = "catalog.playlog"
    label = "playlog"
    verbose_name = _("Play log")
    default_auto_field = "django.db.models.BigAutoField"
