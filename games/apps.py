from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Play")

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from games import jobs, services, socket_credentials
        from games.models import Table

        jobs.register()
        socket_credentials.connect_receivers()  # sockets follow the account
        post_save.connect(services.forget_table, sender=Table, dispatch_uid="games.forget_table")
