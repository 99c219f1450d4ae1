"""Tokens as stored: a lookup prefix and a SHA-256 digest, never the token.

A token reads ``ludo_pat_<40 base62>`` (an account's personal token) or
``ludo_gst_<40 base62>`` (a guest's); the kind marker lets secret scanners
and people tell them apart. The first 8 characters after the marker are the
``prefix``: shown in lists so a person can tell their tokens apart, and the
index a token is looked up by before its digest is compared in constant time.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class _Secret(models.Model):
    prefix = models.CharField(_("prefix"), max_length=8, db_index=True, editable=False)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True, editable=False)

    MARKER = ""

    class Meta:
        abstract = True

    @property
    def shown(self) -> str:
        """What lists show of the token: its marker and prefix."""
        return f"{self.MARKER}{self.prefix}…"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class PersonalToken(_Secret):
    """A personal API token: acts as its account on the JSON API and the sockets."""

    MARKER = "ludo_pat_"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens",
                             verbose_name=_("account"))
    name = models.CharField(_("name"), max_length=60)

    class Meta:
        verbose_name = _("personal API token")
        verbose_name_plural = _("personal API tokens")
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"{self.name} ({self.shown})"


class GuestToken(_Secret):
    """A guest token: a guest identity of its own (``guest_key``) with a display name."""

    MARKER = "ludo_gst_"

    guest_key = models.CharField(max_length=64, unique=True, editable=False)
    display_name = models.CharField(_("display name"), max_length=40)
    address = models.GenericIPAddressField(_("requested from"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("guest token")
        verbose_name_plural = _("guest tokens")
        ordering = ("-created_at",)
        indexes = [models.Index(fields=["last_used_at"], name="tokens_guest_last_used")]

    def __str__(self) -> str:
        return f"{self.display_name} ({self.shown})"
