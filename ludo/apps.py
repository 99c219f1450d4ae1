from django.apps import AppConfig
from django.db.models.signals import post_migrate


class LudoConfig(AppConfig):
    name = "ludo"
    verbose_name = "Ludo"

    def ready(self) -> None:
        from ludo.accounts import sync_hosts_group

        post_migrate.connect(sync_hosts_group, dispatch_uid="ludo.sync_hosts_group")
