"""The rulebooks: documents (rules, translations, summaries, FAQs) of a game, the
files they were uploaded as, the pages read from them, and the hosts' pairings of
a translation's sections with its original's."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalog import media
from catalog import text as textlib
from catalog.collection.models import LANGUAGES, Edition, Game

TESSERACT_LANG = {"fr": "fra", "de": "deu", "en": "eng"}


class DocumentQuerySet(models.QuerySet):
    def visible_to(self, user) -> DocumentQuerySet:
        if user is not None and user.is_authenticated and user.is_staff:
            return self
        allowed = [Document.Visibility.PUBLIC]
        if user is not None and user.is_authenticated:
            allowed.append(Document.Visibility.GUESTS)
        return self.filter(visibility__in=allowed)

    def of_game(self, game: Game) -> DocumentQuerySet:
        """A game's documents and its base game's (an expansion's, a game in a box's),
        with their originals and page counts."""
        return (
            self.filter(Q(game=game) | Q(game=game.base_game_id, game__isnull=False))
            .select_related("original").annotate(page_count=Count("pages"))
        )


class Document(models.Model):
    """A rulebook, a translation, a summary or a FAQ, with its files and pages."""

    class Kind(models.TextChoices):
        RULES = "rules", _("rules")
        TRANSLATION = "translation", _("translation")
        SUMMARY = "summary", _("summary")
        FAQ = "faq", _("FAQ / errata")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("everyone")
        GUESTS = "guests", _("signed-in guests")
        STAFF = "staff", _("staff only")

    class Status(models.TextChoices):
        EMPTY = "empty", _("no file yet")
        PENDING = "pending", _("waiting for text extraction")
        RUNNING = "running", _("text extraction running")
        DONE = "done", _("text ready")
        TO_CHECK = "to_check", _("text ready, pages to check")
        FAILED = "failed", _("text extraction failed")

    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="documents")
    edition = models.ForeignKey(Edition, verbose_name=_("edition"), null=True, blank=True, on_delete=models.SET_NULL, related_name="documents")
    title = models.CharField(_("title"), max_length=300)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.RULES)
    language = models.CharField(_("language"), max_length=2, choices=LANGUAGES)
    original = models.ForeignKey(
        "self", verbose_name=_("original (for a translation)"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="translations",
    )
    translator = models.CharField(_("translator"), max_length=200, blank=True)
    source = models.CharField(_("source"), max_length=300, blank=True)
    licence_note = models.TextField(_("licence note"), blank=True)
    visibility = models.CharField(_("visibility"), max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.EMPTY)
    status_error = models.TextField(_("error"), blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    processed_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    objects = DocumentQuerySet.as_manager()

    class Meta:
        ordering = ["game", "kind", "language", "id"]
        verbose_name = _("document")
        verbose_name_plural = _("documents")
        indexes = [models.Index(fields=["status", "claimed_at"], name="catalog_document_status")]

    def __str__(self) -> str:
        return f"{self.title} ({self.language})"

    def clean(self) -> None:
        if self.original_id:
            if self.original_id == self.pk:
                raise ValidationError({"original": _("A document cannot translate itself.")})
            if self.original.game_id != self.game_id:
                raise ValidationError({"original": _("The original must be a document of the same game.")})
            if self.original.language == self.language:
                raise ValidationError({"original": _("A translation is in another language than its original.")})

    def get_absolute_url(self) -> str:
        return reverse("catalog:reader", args=[self.pk, 1])

    def page_url(self, number: int) -> str:
        return reverse("catalog:reader", args=[self.pk, number])

    @property
    def is_working(self) -> bool:
        return self.status in (self.Status.PENDING, self.Status.RUNNING)

    @property
    def has_text(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.TO_CHECK)

    def pages_to_check(self) -> models.QuerySet:
        """Pages the OCR was unsure of that staff have neither corrected nor passed."""
        return self.pages.filter(needs_check=True, checked_at__isnull=True)

    def review_url(self) -> str:
        return reverse("catalog:document_review", args=[self.pk])


def _file_path(instance: DocumentFile, filename: str) -> str:
    # The type was read from the bytes (catalog.rulebooks.uploads.check_upload), never the name's.
    return media.random_name(f"rulebooks/{instance.document.game_id}/{instance.document_id}", instance.content_type)


class DocumentFile(models.Model):
    """An uploaded scan or text, kept exactly as it came."""

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="files", verbose_name=_("document"))
    position = models.PositiveSmallIntegerField(_("order"), default=0)
    file = models.FileField(_("file"), upload_to=_file_path)
    original_name = models.CharField(max_length=255, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    size = models.PositiveIntegerField(default=0)
    sha256 = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["document", "position", "id"]
        verbose_name = _("file")
        verbose_name_plural = _("files")

    def __str__(self) -> str:
        return self.original_name or self.file.name


def _page_image_path(instance: DocumentPage, filename: str) -> str:
    return media.random_name(f"rulebooks/{instance.document.game_id}/{instance.document_id}/pages", "image/png")


class DocumentPage(models.Model):
    class Method(models.TextChoices):
        TEXT_LAYER = "text-layer", _("text layer of the PDF")
        OCR = "ocr", _("OCR")
        IMPORT = "import", _("imported text")

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="pages")
    number = models.PositiveSmallIntegerField()
    language = models.CharField(max_length=2, choices=LANGUAGES)  # the document's, for the search index
    method = models.CharField(max_length=12, choices=Method.choices)
    extracted_text = models.TextField(blank=True)
    text = models.TextField(_("transcription"), blank=True)
    noise = models.JSONField(default=list, blank=True)
    search_text = models.TextField(blank=True, editable=False)
    stems = models.TextField(blank=True, editable=False)
    image = models.ImageField(upload_to=_page_image_path, blank=True)
    thumbnail = models.ImageField(upload_to=_page_image_path, blank=True)
    corrected_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    corrected_at = models.DateTimeField(null=True, blank=True)
    # OCR quality: tesseract's confidence in the page (0-100, length-weighted mean of its
    # words), the preprocessing steps applied, and whether staff must check the page.
    # A flagged page leaves the list once corrected or passed by staff (checked_*).
    confidence = models.FloatField(_("OCR confidence"), null=True, blank=True)
    ocr_steps = models.JSONField(default=list, blank=True)
    needs_check = models.BooleanField(_("to check"), default=False)
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    checked_at = models.DateTimeField(_("checked at"), null=True, blank=True)

    class Meta:
        ordering = ["document", "number"]
        constraints = [models.UniqueConstraint(fields=["document", "number"], name="catalog_page_number")]
        verbose_name = _("page")
        verbose_name_plural = _("pages")

    def __str__(self) -> str:
        return f"{self.document} p.{self.number}"

    @property
    def awaiting_check(self) -> bool:
        return self.needs_check and self.checked_at is None

    def ocr_steps_display(self) -> list[str]:
        """The preprocessing steps in the reader's language ("deskew +1.50°" is stored)."""
        from django.utils.formats import number_format

        out = []
        for step in self.ocr_steps or []:
            name, _sep, value = step.partition(" ")
            number = value.strip("+×°")
            try:
                amount = number_format(float(number), 2)
            except ValueError:
                amount = number
            if name == "deskew":
                out.append(_("straightened by %(angle)s°") % {"angle": amount})
            elif name == "upscale":
                out.append(_("enlarged ×%(factor)s") % {"factor": amount})
            elif name == "denoise":
                out.append(_("specks filtered"))
            elif name == "binarise":
                out.append(_("black and white"))
            else:
                out.append(step)
        return out

    def correct_url(self) -> str:
        return reverse("catalog:correct_page", args=[self.document_id, self.number])

    def refresh_search_fields(self) -> None:
        """What the indexes see: the text without its noise, and (for SQLite) its stems."""
        self.language = self.document.language
        self.search_text = textlib.without_noise(self.text, self.noise)
        self.stems = textlib.stems(self.search_text, self.language)

    def save(self, *args, **kwargs):
        self.refresh_search_fields()
        super().save(*args, **kwargs)


class SectionPairing(models.Model):
    """A host's correction of the alignment: this section of a translation goes with
    that section of its original (or with none). Sections are named by their keys
    (see catalog/rulebooks/sections.py)."""

    translation = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="section_pairings",
                                    verbose_name=_("translation"))
    section = models.CharField(_("section of the translation"), max_length=20)
    original_section = models.CharField(_("section of the original"), max_length=20, blank=True,
                                        help_text=_("Empty: no counterpart."))
    set_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    set_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["translation", "section"]
        constraints = [models.UniqueConstraint(fields=["translation", "section"], name="catalog_pairing_section")]
        verbose_name = _("section pairing")
        verbose_name_plural = _("section pairings")

    def __str__(self) -> str:
        return f"{self.translation_id}:{self.section} -> {self.original_section or '-'}"
