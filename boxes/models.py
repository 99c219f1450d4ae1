"""What a box holds, and what its counts found.

A game has a contents template (``ContentItem``: "12 pions violets", grouped);
a copy that differs from it (a replaced piece, a deck short of a card for good)
has its own list (``CopyItem``), copied from the template when a host edits it.
A ``Count`` records who counted a copy, when, and what each item showed
(``CountLine``). A shortfall opens a catalogue ``MissingPart`` with a
``Shortfall`` beside it (which item, how many, whether the box stays playable,
the sessions and plays it may have gone missing at). ``BoxState`` is one row
per counted or used copy: the version two hosts counting at once race on, the
last count, the last complete count, and whether the box is incomplete or not
playable (kept by the services, read by the picker and the booking forms).
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalog import media
from catalog.shelves.models import Copy, MissingPart

MAX_QUANTITY = 2000  # the most of one item a box may hold (a bag of 1,000 beads fits)


def _picture_path(instance: ContentItem, filename: str) -> str:
    return media.random_name("boxes/items", media.sniff_field(instance.picture))


def _photo_path(instance: GuestReport, filename: str) -> str:
    return media.random_name("boxes/reports", media.sniff_field(instance.photo))


class Item(models.Model):
    group = models.CharField(_("group"), max_length=60, blank=True, help_text=_("Such as “Pieces” or “Cards”."))
    label = models.CharField(_("item"), max_length=120, help_text=_("Such as “violet pieces”."))
    quantity = models.PositiveIntegerField(
        _("how many"), default=1, validators=[MinValueValidator(1), MaxValueValidator(MAX_QUANTITY)])
    essential = models.BooleanField(
        _("cannot play without all of them"), default=False,
        help_text=_("Suggests “not playable” when one is missing (the only die, the board)."))
    position = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        abstract = True
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return f"{self.quantity} {self.label}"


class ContentItem(Item):
    """One line of a game's contents template."""

    game = models.ForeignKey("catalog.Game", verbose_name=_("game"), on_delete=models.CASCADE,
                             related_name="content_items")
    picture = models.ImageField(_("picture"), upload_to=_picture_path, blank=True)

    class Meta(Item.Meta):
        verbose_name = _("contents item")
        verbose_name_plural = _("contents items")
        constraints = [models.UniqueConstraint(fields=["game", "label"], name="boxes_item_once_per_game")]


class CopyItem(Item):
    """One line of a copy's own contents, where the copy differs from its game's."""

    copy = models.ForeignKey(Copy, verbose_name=_("copy"), on_delete=models.CASCADE, related_name="own_items")
    template = models.ForeignKey(ContentItem, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta(Item.Meta):
        verbose_name = _("item of a copy")
        verbose_name_plural = _("items of a copy")
        constraints = [models.UniqueConstraint(fields=["copy", "label"], name="boxes_item_once_per_copy")]


class BoxState(models.Model):
    copy = models.OneToOneField(Copy, primary_key=True, on_delete=models.CASCADE, related_name="box_state")
    version = models.PositiveIntegerField(default=0)
    counted_at = models.DateTimeField(_("last counted"), null=True, blank=True)
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    complete_at = models.DateTimeField(_("last found complete"), null=True, blank=True)
    incomplete = models.BooleanField(_("incomplete"), default=False)
    unplayable = models.BooleanField(_("not playable"), default=False, db_index=True)

    class Meta:
        verbose_name = _("state of a box")
        verbose_name_plural = _("states of the boxes")

    def __str__(self) -> str:
        return str(self.copy_id)


class Count(models.Model):
    copy = models.ForeignKey(Copy, verbose_name=_("copy"), on_delete=models.CASCADE, related_name="counts")
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("counted by"), null=True,
                                   on_delete=models.SET_NULL, related_name="+")
    counted_at = models.DateTimeField(_("counted at"), default=timezone.now)
    complete = models.BooleanField(_("everything there"), default=False)
    condition = models.CharField(_("condition"), max_length=10, choices=Copy.Condition.choices)
    note = models.TextField(_("note"), blank=True, max_length=1000)

    class Meta:
        ordering = ["-counted_at", "-id"]
        verbose_name = _("count")
        verbose_name_plural = _("counts")
        indexes = [models.Index(fields=["copy", "-counted_at"], name="boxes_count_copy")]

    def __str__(self) -> str:
        return f"{self.copy_id} @ {self.counted_at:%Y-%m-%d %H:%M}"


class CountLine(models.Model):
    count = models.ForeignKey(Count, on_delete=models.CASCADE, related_name="lines")
    group = models.CharField(max_length=60, blank=True)
    label = models.CharField(max_length=120)
    expected = models.PositiveIntegerField()
    found = models.PositiveIntegerField()
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["id"]

    @property
    def short(self) -> int:
        return max(0, self.expected - self.found)

    @property
    def surplus(self) -> int:
        return max(0, self.found - self.expected)


class Shortfall(models.Model):
    """The item side of a missing part: which item, how many, playable or not,
    and where it may have gone (the sessions and plays since the last complete count)."""

    part = models.OneToOneField(MissingPart, on_delete=models.CASCADE, related_name="shortfall")
    copy = models.ForeignKey(Copy, on_delete=models.CASCADE, related_name="shortfalls")
    label = models.CharField(_("item"), max_length=120)
    quantity = models.PositiveIntegerField(_("how many missing"))
    count = models.ForeignKey(Count, null=True, blank=True, on_delete=models.SET_NULL, related_name="shortfalls")
    blocking = models.BooleanField(_("the box cannot be played without it"), default=False)
    since = models.DateTimeField(_("last complete count before"), null=True, blank=True)
    sessions = models.ManyToManyField("bookings.Session", blank=True, related_name="+")
    plays = models.ManyToManyField("playlog.Play", blank=True, related_name="+")
    open = models.BooleanField(default=True)

    class Meta:
        ordering = ["-part__reported_at", "-id"]
        verbose_name = _("shortfall")
        verbose_name_plural = _("shortfalls")
        indexes = [models.Index(fields=["copy", "open"], name="boxes_shortfall_open")]

    def __str__(self) -> str:
        return f"{self.quantity} × {self.label}"


class StrayPiece(models.Model):
    """A piece found where it does not belong (in another box, under a table)."""

    found_in = models.ForeignKey(Copy, verbose_name=_("found in the box"), null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="strays_found")
    belongs_to = models.ForeignKey("catalog.Game", verbose_name=_("belongs to"), null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    description = models.CharField(_("what it is"), max_length=300)
    found_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    found_at = models.DateTimeField(_("found at"), default=timezone.now)
    returned_at = models.DateTimeField(_("put back at"), null=True, blank=True)

    class Meta:
        ordering = ["-found_at", "-id"]
        verbose_name = _("stray piece")
        verbose_name_plural = _("stray pieces")

    def __str__(self) -> str:
        return self.description


class GuestReport(models.Model):
    """A guest's word from a box's QR page, kept for a host to confirm."""

    class Kind(models.TextChoices):
        MISSING = "missing", _("a piece is missing")
        FOUND = "found", _("a piece was found")

    class Status(models.TextChoices):
        PENDING = "pending", _("to check")
        CONFIRMED = "confirmed", _("confirmed")
        DISMISSED = "dismissed", _("dismissed")

    copy = models.ForeignKey(Copy, verbose_name=_("copy"), on_delete=models.CASCADE, related_name="guest_reports")
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    description = models.CharField(_("what"), max_length=300)
    belongs_to = models.CharField(_("game it belongs to, as the guest wrote it"), max_length=200, blank=True)
    photo = models.ImageField(_("photo"), upload_to=_photo_path, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    handled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("guest report")
        verbose_name_plural = _("guest reports")
        indexes = [models.Index(fields=["status", "copy"], name="boxes_report_pending")]
        constraints = [models.CheckConstraint(condition=Q(kind__in=["missing", "found"]), name="boxes_report_kind")]

    def __str__(self) -> str:
        return self.description


class SummaryWeek(models.Model):
    """A week whose summary was queued (unique: two workers never send it twice)."""

    week = models.CharField(max_length=10, unique=True)
    queued_at = models.DateTimeField(default=timezone.now)


# -- the shelf check (récolement) --------------------------------------------------------------

class ShelfCheck(models.Model):
    """A walk along the shelves checking that each box stands where the catalogue
    says: the whole library, or some shelves (``scope``: "D E12", a letter for a
    whole aisle, a code for one shelf and the boxes hidden behind it). Several
    hosts scan into one check at once; a finished check is a record, read only."""

    class State(models.TextChoices):
        IN_PROGRESS = "in_progress", _("in progress")
        FINISHED = "finished", _("finished")

    scope = models.CharField(_("shelves"), max_length=200, blank=True,
                             help_text=_("Empty for the whole library; else aisles (D) and shelves (E12)."))
    state = models.CharField(_("progress"), max_length=12, choices=State.choices, default=State.IN_PROGRESS)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("started by"), null=True,
                                   on_delete=models.SET_NULL, related_name="+")
    started_at = models.DateTimeField(_("started at"), default=timezone.now)
    finished_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("finished by"), null=True,
                                    blank=True, on_delete=models.SET_NULL, related_name="+")
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        verbose_name = _("shelf check")
        verbose_name_plural = _("shelf checks")
        constraints = [models.CheckConstraint(condition=Q(state__in=["in_progress", "finished"]),
                                              name="boxes_shelfcheck_state")]

    def __str__(self) -> str:
        return f"{self.scope or '*'} @ {self.started_at:%Y-%m-%d}"

    @property
    def finished(self) -> bool:
        return self.state == self.State.FINISHED


class ShelfScan(models.Model):
    """A box seen during a check: one row per box (scanning it again moves the
    row: the last shelf wins), with the shelf the host stood at."""

    class Resolution(models.TextChoices):
        NONE = "", _("not corrected")
        MOVED = "moved", _("catalogue moved to where it was found")
        PUT_BACK = "put_back", _("put back on its shelf")

    walk = models.ForeignKey(ShelfCheck, on_delete=models.CASCADE, related_name="scans")
    copy = models.ForeignKey(Copy, on_delete=models.CASCADE, related_name="+")
    shelf = models.CharField(_("seen on shelf"), max_length=8)
    scanned_at = models.DateTimeField(_("seen at"), default=timezone.now)
    scanned_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    times = models.PositiveIntegerField(_("times scanned"), default=1)
    resolution = models.CharField(max_length=10, choices=Resolution.choices, blank=True, default="")

    class Meta:
        ordering = ["-scanned_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["walk", "copy"], name="boxes_scan_once_per_check")]
        indexes = [models.Index(fields=["walk", "shelf"], name="boxes_scan_shelf")]

    def __str__(self) -> str:
        return f"{self.copy_id} @ {self.shelf}"


class UnknownLabel(models.Model):
    """Something scanned during a check that is no label of the house's boxes
    (another site's code, a box the catalogue does not have, garbage)."""

    walk = models.ForeignKey(ShelfCheck, on_delete=models.CASCADE, related_name="unknown_labels")
    text = models.CharField(_("what was read"), max_length=300)
    # Why, as a code of boxes.labels.REASONS and its values (said in the reader's
    # language); ``reason`` holds the words of rows kept before the codes.
    why = models.CharField(_("why it is unknown"), max_length=20, blank=True)
    why_args = models.JSONField(default=dict, blank=True)
    reason = models.CharField(_("why it is unknown (words)"), max_length=200, blank=True)
    shelf = models.CharField(_("seen on shelf"), max_length=8)
    scanned_at = models.DateTimeField(default=timezone.now)
    scanned_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["shelf", "id"]
        constraints = [models.UniqueConstraint(fields=["walk", "text"], name="boxes_unknown_once_per_check")]

    @property
    def shown_reason(self) -> str:
        from boxes.labels import explain

        return explain(self.why, self.why_args) if self.why else self.reason


class ShelfCorrection(models.Model):
    """A change the check made to the catalogue, or chose not to make: a box's
    shelf moved to where it was found, a box put back (the catalogue kept), a box
    not seen marked missing (its status before is kept)."""

    class Kind(models.TextChoices):
        MOVED = "moved", _("shelf corrected")
        PUT_BACK = "put_back", _("put back")
        MISSING = "missing", _("marked missing")

    walk = models.ForeignKey(ShelfCheck, on_delete=models.CASCADE, related_name="corrections")
    copy = models.ForeignKey(Copy, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    shelf_before = models.CharField(max_length=8)
    shelf_after = models.CharField(max_length=8)
    status_before = models.CharField(max_length=12, blank=True)
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    made_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-made_at", "-id"]
        indexes = [models.Index(fields=["walk", "kind"], name="boxes_correction_kind")]
        constraints = [models.CheckConstraint(condition=Q(kind__in=["moved", "put_back", "missing"]),
                                              name="boxes_correction_kind_known")]
