from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _

# What the hosts may do with tokens in the admin: see them (never the secret,
# which is not stored) and revoke them.
HOST_PERMISSIONS = ("view_personaltoken", "change_personaltoken", "view_guesttoken", "change_guesttoken")


def grant_hosts(sender: Any = None, **kwargs: Any) -> None:
    """After each migrate, like ludo.accounts.sync_hosts_group for the other apps."""
    from django.conf import settings
    from django.contrib.auth.models import Group, Permission

    group, _created = Group.objects.get_or_create(name=settings.HOSTS_GROUP)
    group.permissions.add(*Permission.objects.filter(content_type__app_label="tokens", codename__in=HOST_PERMISSIONS))


class TokensConfig(AppConfig):
    name = "ludo.tokens"
    label = "tokens"
    verbose_name = _("API tokens")

    def ready(self) -> None:
        post_migrate.connect(grant_hosts, sender=self, dispatch_uid="tokens.grant_hosts")
