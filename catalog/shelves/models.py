"""The shelves: the physical boxes of the house (copies), the parts found missing
from them, and the QR codes printed on their labels."""

from __future__ import annotations

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalog.collection.models import Edition, Game

SHELF_RE = re.compile(r"^[A-Z]{1,3}[0-9]{1,3}#?$")


def validate_shelf(value: str) -> None:
    if not SHELF_RE.match(value or ""):
        raise ValidationError(
            _("A shelf code is a letter and a number, such as D5, with # when the box stands hidden behind (D5#)."),
            code="shelf",
        )


class Copy(models.Model):
    """One physical box on the gîte's shelves."""

    class Status(models.TextChoices):
        AVAILABLE = "available", _("on the shelf")
        IN_USE = "in_use", _("being played")
        LENT = "lent", _("lent")
        QUARANTINE = "quarantine", _("in quarantine")

    class Condition(models.TextChoices):
        NEW = "new", _("as new")
        GOOD = "good", _("good")
        WORN = "worn", _("worn")
        DAMAGED = "damaged", _("damaged")

    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.PROTECT, related_name="copies")
    edition = models.ForeignKey(Edition, verbose_name=_("edition"), null=True, blank=True, on_delete=models.SET_NULL, related_name="copies")
    shelf = models.CharField(_("shelf"), max_length=8, validators=[validate_shelf], help_text=_("Such as D5; D5# when hidden behind."))
    condition = models.CharField(_("condition"), max_length=10, choices=Condition.choices, default=Condition.GOOD)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.AVAILABLE)
    contents = models.TextField(_("contents checklist"), blank=True, help_text=_("One item per line, such as “12 violet pieces”."))
    # Acquisition data: staff only.
    acquired_on = models.DateField(_("acquired on"), null=True, blank=True)
    acquired_from = models.CharField(_("acquired from"), max_length=200, blank=True)
    price = models.DecimalField(_("price paid (€)"), max_digits=8, decimal_places=2, null=True, blank=True)
    acquisition_note = models.TextField(_("acquisition note"), blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["shelf", "id"]
        verbose_name = _("copy")
        verbose_name_plural = _("copies")
        indexes = [models.Index(fields=["status", "game"], name="catalog_copy_status")]

    def __str__(self) -> str:
        return f"{self.game.title} [{self.shelf}]"

    def clean(self) -> None:
        if self.edition_id and self.game_id and self.edition.game_id != self.game_id:
            raise ValidationError({"edition": _("This edition belongs to another game.")})

    @property
    def hidden_behind(self) -> bool:
        return self.shelf.endswith("#")

    def contents_list(self) -> list[str]:
        return [line.strip() for line in self.contents.splitlines() if line.strip()]


class QrCode(models.Model):
    """A QR code drawn once (an SVG), by the address it holds: a sheet of shelf
    labels reads them in one query instead of drawing each again (milliseconds
    apiece in pure Python). Drawn when a copy is added, or at its first printing."""

    data = models.CharField(max_length=600, unique=True)
    svg = models.TextField()

    class Meta:
        verbose_name = _("QR code")
        verbose_name_plural = _("QR codes")

    def __str__(self) -> str:
        return self.data


class MissingPart(models.Model):
    copy = models.ForeignKey(Copy, verbose_name=_("copy"), on_delete=models.CASCADE, related_name="missing_parts")
    description = models.CharField(_("what is missing"), max_length=300)
    reported_at = models.DateTimeField(_("reported at"), default=timezone.now)
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("reported by"))
    found_at = models.DateTimeField(_("found or replaced at"), null=True, blank=True)

    class Meta:
        ordering = ["-reported_at"]
        verbose_name = _("missing part")
        verbose_name_plural = _("missing parts")

    def __str__(self) -> str:
        return self.description
