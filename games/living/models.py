"""A living-room table: a live table (games.Table) with a short join code, shown
on a shared screen (phones join by the code) or played pass-and-play on one device."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Room(models.Model):
    class Mode(models.TextChoices):
        SCREEN = "screen", _("Shared screen and phones")
        PASS = "pass", _("Pass-and-play on one device")

    table = models.OneToOneField("games.Table", verbose_name=_("table"), on_delete=models.CASCADE,
                                 related_name="living_room")
    # Short letters from an alphabet without look-alikes (games.living.codes); the code
    # works only while its table is open or in play, and is freed (null) once it has
    # ended, to be drawn again (games.living.services.free_ended_codes).
    code = models.CharField(_("join code"), max_length=12, unique=True, null=True, blank=True)
    mode = models.CharField(_("mode"), max_length=8, choices=Mode.choices, default=Mode.SCREEN)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("living-room table")
        verbose_name_plural = _("living-room tables")

    def __str__(self) -> str:
        return f"{self.code} ({self.table_id})"
