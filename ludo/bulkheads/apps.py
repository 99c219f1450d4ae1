from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BulkheadsConfig(AppConfig):
    name = "ludo.bulkheads"
    label = "bulkheads"
    verbose_name = _("Background work")
    default_auto_field = "django.db.models.BigAutoField"
