from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LivingConfig(AppConfig):
    """The living room: a table on one shared screen joined from phones by a
    short code, and pass-and-play tables played from one device."""

    name = "games.living"
    label = "living"
    verbose_name = _("Living room")
    default_auto_field = "django.db.models.BigAutoField"
