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
