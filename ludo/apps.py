from django.apps import AppConfig
from django.db.models.signals import post_migrate, post_save, pre_save


class LudoConfig(AppConfig):
    name = "ludo"
    verbose_name = "Ludo"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.urls import register_converter
        from django.urls.converters import get_converters

        from ludo import checks  # noqa: F401 (registers the deploy checks)
        from ludo.accounts import remember_name_skeleton, sync_hosts_group
        from ludo.converters import NumberConverter

        if "num" not in get_converters():
            register_converter(NumberConverter, "num")

        post_migrate.connect(sync_hosts_group, dispatch_uid="ludo.sync_hosts_group")
        post_save.connect(remember_name_skeleton, sender=get_user_model(), dispatch_uid="ludo.name_skeleton")

        from ludo.account.credentials import remember_active, tell_deactivation

        pre_save.connect(remember_active, sender=get_user_model(), dispatch_uid="ludo.remember_active")
        post_save.connect(tell_deactivation, sender=get_user_model(), dispatch_uid="ludo.tell_deactivation")
