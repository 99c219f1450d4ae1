from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BoxesConfig(AppConfig):
    name = "boxes"
    verbose_name = _("Boxes and their contents")

    def ready(self) -> None:
        from boxes import summary

        summary.register()
