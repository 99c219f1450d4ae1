"""What the site remembers of a person beyond Django's user: their preferences."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    """One per account, made when first needed (a language chosen)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    language = models.CharField(_("language"), max_length=10, blank=True, default="", choices=settings.LANGUAGES,
                                help_text=_("The site's language for this account; empty: the browser's."))

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return f"{self.user} ({self.language or '-'})"


class NameSkeleton(models.Model):
    """How an account's username looks (ludo.accounts.name_skeleton), indexed:
    whether a guest or a new account may take a name is one lookup, not a scan
    of every username. Kept by a post_save receiver of the user model
    (ludo.accounts.remember_name_skeleton); a username written around save()
    (a queryset's update) is not seen until the row is saved again."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    skeleton = models.CharField(max_length=150, db_index=True)

    def __str__(self) -> str:
        return self.skeleton
