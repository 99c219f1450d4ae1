"""The collection: games, their editions and physical copies, people and publishers,
rulebooks (documents, their files and pages)."""

from __future__ import annotations

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from catalog import media
from catalog import text as textlib

LANGUAGES = [("fr", _("French")), ("de", _("German")), ("en", _("English"))]
TESSERACT_LANG = {"fr": "fra", "de": "deu", "en": "eng"}
# Weight bands of the filter: [low, high) on BoardGameGeek's 1-5 scale.
WEIGHT_BANDS = {"light": (1, 2), "medium": (2, 3.25), "heavy": (3.25, 5.01)}
# BoardGameGeek's "no upper limit" (a maximum above this): stored as this number,
# so that an empty maximum only ever means "unknown".
MAX_PLAYERS_OPEN = 100
SHELF_RE = re.compile(r"^[A-Z]{1,3}[0-9]{1,3}#?$")


def unique_slug(model: type[models.Model], base: str, exclude_pk: int | None = None) -> str:
    root = slugify(textlib.fold(base))[:70] or "x"
    slug, n = root, 2
    qs = model.objects.all()
    if exclude_pk:
        qs = qs.exclude(pk=exclude_pk)
    while qs.filter(slug=slug).exists():
        slug, n = f"{root}-{n}", n + 1
    return slug


def validate_shelf(value: str) -> None:
    if not SHELF_RE.match(value or ""):
        raise ValidationError(
            _("A shelf code is a letter and a number, such as D5, with # when the box stands hidden behind (D5#)."),
            code="shelf",
        )


def validate_ean(value: str) -> None:
    if not value:
        return
    if not value.isdigit() or len(value) not in (8, 13):
        raise ValidationError(_("An EAN has 8 or 13 digits."), code="ean")
    digits = [int(c) for c in value]
    weights = [3, 1] * 7 if len(value) == 8 else [1, 3] * 7
    total = sum(d * w for d, w in zip(digits[:-1], weights))
    if (10 - total % 10) % 10 != digits[-1]:
        raise ValidationError(_("This EAN's check digit is wrong."), code="ean-check")


class Person(models.Model):
    name = models.CharField(_("name"), max_length=200, unique=True)
    slug = models.SlugField(max_length=80, unique=True, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("person")
        verbose_name_plural = _("people")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        if not self.slug:
            self.slug = unique_slug(Person, self.name, self.pk)
        super().save(*args, **kwargs)


class Publisher(models.Model):
    name = models.CharField(_("name"), max_length=200, unique=True)
    slug = models.SlugField(max_length=80, unique=True, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("publisher")
        verbose_name_plural = _("publishers")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        if not self.slug:
            self.slug = unique_slug(Publisher, self.name, self.pk)
        super().save(*args, **kwargs)


class Term(models.Model):
    """A category, mechanic, theme or free tag (one table, told apart by kind)."""

    class Kind(models.TextChoices):
        CATEGORY = "category", _("category")
        MECHANIC = "mechanic", _("mechanic")
        THEME = "theme", _("theme")
        TAG = "tag", _("tag")

    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    slug = models.SlugField(max_length=80)
    name_en = models.CharField(_("name in English"), max_length=100)
    name_fr = models.CharField(_("name in French"), max_length=100, blank=True)

    class Meta:
        ordering = ["kind", "name_en"]
        constraints = [models.UniqueConstraint(fields=["kind", "slug"], name="catalog_term_kind_slug")]
        verbose_name = _("term")
        verbose_name_plural = _("terms")

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.name_fr if get_language() == "fr" and self.name_fr else self.name_en


def _cover_path(instance: Game, filename: str) -> str:
    return media.random_name("covers", media.sniff_field(instance.cover))


class GameQuerySet(models.QuerySet):
    def available_now(self) -> GameQuerySet:
        """Games with a copy on the shelf now (a game printed inside another's box
        counts when that box is on the shelf)."""
        return self.filter(
            Q(copies__status=Copy.Status.AVAILABLE)
            | Q(kind=Game.Kind.IN_BOX, base_game__copies__status=Copy.Status.AVAILABLE)
        ).distinct()

    def matching(self, f: dict) -> GameQuerySet:
        """The games that pass the catalogue's filters (a cleaned FilterForm's data)."""
        qs = self
        players = f.get("players")
        if players:
            # An unknown maximum is unknown, not "no limit": such a game is listed
            # only for its known minimum (BoardGameGeek's "no limit" is stored as
            # MAX_PLAYERS_OPEN by the importer).
            qs = qs.filter(
                Q(min_players__lte=players, max_players__gte=players)
                | Q(min_players=players, max_players__isnull=True)
                | Q(min_players__isnull=True, max_players__gte=players)
            )
            if f.get("best"):
                qs = qs.filter(best_min_players__lte=players, best_max_players__gte=players)
        if f.get("time"):
            qs = qs.filter(min_time__lte=f["time"])
        if f.get("age"):
            qs = qs.filter(min_age__lte=f["age"])
        weight = f.get("weight")
        if weight in WEIGHT_BANDS:
            low, high = WEIGHT_BANDS[weight]
            qs = qs.filter(weight__gte=low, weight__lt=high)
        if f.get("language") not in (None, ""):
            qs = qs.filter(language_dependence__lte=int(f["language"]))
        for kind in ("category", "mechanic", "theme"):
            if f.get(kind):
                qs = qs.filter(terms__kind=kind, terms__slug=f[kind])
        if f.get("available"):
            qs = qs.available_now()
        return qs

    def with_card_data(self) -> GameQuerySet:
        """What a result card shows, in one query."""
        return self.annotate(
            available_copies=Count("copies", filter=Q(copies__status=Copy.Status.AVAILABLE), distinct=True)
        ).select_related("base_game")


class Game(models.Model):
    class Kind(models.TextChoices):
        STANDALONE = "standalone", _("standalone game")
        EXPANSION = "expansion", _("expansion")
        IN_BOX = "in_box", _("game in another game's box")

    class LanguageDependence(models.IntegerChoices):
        NONE = 0, _("no text on the components")
        SOME = 1, _("some text, easily memorised")
        MODERATE = 2, _("moderate text, a reference sheet helps")
        EXTENSIVE = 3, _("extensive text, needs a translation")
        UNPLAYABLE = 4, _("unplayable in another language")

    slug = models.SlugField(max_length=80, unique=True, blank=True)
    title = models.CharField(_("title"), max_length=300, help_text=_("The name on the box (original language)."))
    title_fr = models.CharField(_("French title"), max_length=300, blank=True)
    title_de = models.CharField(_("German title"), max_length=300, blank=True)
    title_en = models.CharField(_("English title"), max_length=300, blank=True)
    other_names = models.TextField(_("alternate names"), blank=True, help_text=_("One per line."))
    name_key = models.TextField(editable=False, default="", help_text="every name folded, for search")
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.STANDALONE)
    base_game = models.ForeignKey(
        "self", verbose_name=_("base game or box"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="children",
    )
    designers = models.ManyToManyField(Person, verbose_name=_("designers"), blank=True, related_name="designed")
    artists = models.ManyToManyField(Person, verbose_name=_("artists"), blank=True, related_name="illustrated")
    publishers = models.ManyToManyField(Publisher, verbose_name=_("publishers"), blank=True, related_name="games")
    terms = models.ManyToManyField(Term, verbose_name=_("categories, mechanics, themes, tags"), blank=True, related_name="games")
    year = models.SmallIntegerField(_("year"), null=True, blank=True, help_text=_("Negative before the common era."))
    min_players = models.PositiveSmallIntegerField(_("minimum players"), null=True, blank=True)
    max_players = models.PositiveSmallIntegerField(_("maximum players"), null=True, blank=True)
    best_min_players = models.PositiveSmallIntegerField(_("best from (players)"), null=True, blank=True)
    best_max_players = models.PositiveSmallIntegerField(_("best up to (players)"), null=True, blank=True)
    min_time = models.PositiveIntegerField(_("playing time from (minutes)"), null=True, blank=True)
    max_time = models.PositiveIntegerField(_("playing time up to (minutes)"), null=True, blank=True)
    teach_time = models.PositiveSmallIntegerField(_("teaching time (minutes)"), null=True, blank=True)
    min_age = models.PositiveSmallIntegerField(_("minimum age"), null=True, blank=True)
    weight = models.DecimalField(
        _("weight"), max_digits=3, decimal_places=2, null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(5)], help_text=_("1 light to 5 heavy."),
    )
    language_dependence = models.PositiveSmallIntegerField(
        _("language dependence"), choices=LanguageDependence.choices, null=True, blank=True
    )
    bgg_id = models.PositiveIntegerField(_("BoardGameGeek id"), null=True, blank=True, unique=True)
    engine_slug = models.SlugField(_("engine"), max_length=40, blank=True, help_text=_("Set when the game can be played online here."))
    rating = models.FloatField(_("average rating"), null=True, blank=True)
    rating_count = models.PositiveIntegerField(_("ratings on BoardGameGeek"), default=0)
    owned_count = models.PositiveIntegerField(_("owners on BoardGameGeek"), default=0)
    description = models.TextField(_("description"), blank=True, help_text=_("A few sentences for guests."))
    cover = models.ImageField(_("cover picture"), upload_to=_cover_path, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["title"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [
            models.Index(fields=["min_players", "max_players"], name="catalog_game_players"),
            models.Index(fields=["min_time"], name="catalog_game_time"),
            models.Index(fields=["-owned_count"], name="catalog_game_popular"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(min_players__isnull=True) | Q(max_players__isnull=True) | Q(min_players__lte=models.F("max_players")),
                name="catalog_game_players_order",
            ),
        ]

    def __str__(self) -> str:
        return self.display_title

    @property
    def display_title(self) -> str:
        """The name in the page's language (its primary one), else the original."""
        lang = (get_language() or "fr")[:2]
        return getattr(self, f"title_{lang}", "") or self.title

    @cached_property
    def original_title(self) -> str:
        """The original name, when it is not the one displayed (shown beside it)."""
        return self.title if textlib.fold(self.title) != textlib.fold(self.display_title) else ""

    @cached_property
    def initial(self) -> str:
        """The letter of the cover placeholder: the displayed name's first
        significant word's ("Les Aventuriers du Rail" -> "A")."""
        from catalog import query

        words = query.significant(textlib.fold_query(self.display_title).split())
        return (words[0][:1] if words else self.display_title[:1]).upper()

    def all_names(self) -> list[str]:
        names = [self.title, self.title_fr, self.title_de, self.title_en]
        if self.pk:
            # Prefetched (`names`) when the caller read many games at once.
            names += [n.name for n in self.names.all()]
        return [*names, *self.other_names.splitlines()]

    def refresh_name_key(self) -> None:
        self.name_key = textlib.name_key(self.all_names())

    def clean(self) -> None:
        if self.min_players and self.max_players and self.min_players > self.max_players:
            raise ValidationError({"max_players": _("The maximum cannot be below the minimum.")})
        if self.min_time and self.max_time and self.min_time > self.max_time:
            raise ValidationError({"max_time": _("The longest time cannot be below the shortest.")})
        if self.base_game_id and self.base_game_id == self.pk:
            raise ValidationError({"base_game": _("A game cannot be its own base game.")})
        if self.kind != self.Kind.STANDALONE and not self.base_game_id:
            raise ValidationError({"base_game": _("An expansion or a game in a box needs its base game or box.")})
        if self.engine_slug:
            from games import engines

            if self.engine_slug not in engines.slugs():
                raise ValidationError({"engine_slug": _("No engine is registered under this name.")})

    def save(self, *args, **kwargs):
        self.refresh_name_key()
        if not self.slug:
            self.slug = unique_slug(Game, self.title, self.pk)
        super().save(*args, **kwargs)
        NameWord.add_from([self.name_key])
        if self.title_fr or self.title_de or self.title_en:
            from catalog import names

            names.ensure_from_titles(self)  # titles set directly become names

    def get_absolute_url(self) -> str:
        return reverse("catalog:game", args=[self.slug])

    def rules_url(self) -> str:
        return reverse("catalog:rules", args=[self.slug])

    @property
    def year_label(self) -> str:
        if self.year is not None and self.year < 0:
            return _("%(year)d BCE") % {"year": -self.year}
        return str(self.year or "")

    @property
    def players_label(self) -> str:
        if self.max_players and self.max_players >= MAX_PLAYERS_OPEN:
            return f"{self.min_players or 1}+"
        if self.min_players and self.max_players and self.min_players != self.max_players:
            return f"{self.min_players}–{self.max_players}"
        return str(self.min_players or self.max_players or "?")

    @property
    def time_label(self) -> str:
        if self.min_time and self.max_time and self.min_time != self.max_time:
            return f"{self.min_time}–{self.max_time}"
        return str(self.min_time or self.max_time or "?")

    def best_at(self, players: int) -> bool:
        return bool(self.best_min_players and self.best_min_players <= players <= (self.best_max_players or self.best_min_players))


NAME_LANGUAGE_RE = re.compile(r"^[a-z]{2}$")


def validate_name_language(value: str) -> None:
    if not NAME_LANGUAGE_RE.match(value or ""):
        raise ValidationError(_("A language is a two-letter ISO 639-1 code in lower case, such as fr, en, de."), code="language")


class GameName(models.Model):
    """One name of a game in one language (the box of that language's edition);
    at most one primary name per language: the one shown on the site in that
    language (kept in Game.title_fr / title_de / title_en for fr, de and en)."""

    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="names")
    language = models.CharField(_("language"), max_length=2, validators=[validate_name_language], help_text=_("fr, en, de, it, es..."))
    name = models.CharField(_("name"), max_length=300)
    primary = models.BooleanField(_("primary in this language"), default=False)

    class Meta:
        ordering = ["game", "language", "-primary", "id"]
        verbose_name = _("name")
        verbose_name_plural = _("names")
        constraints = [
            models.UniqueConstraint(fields=["game", "language", "name"], name="catalog_gamename_unique"),
            models.UniqueConstraint(
                fields=["game", "language"], condition=Q(primary=True), name="catalog_gamename_one_primary"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.language})"

    def clean(self) -> None:
        self.name = " ".join((self.name or "").split())
        if not self.name:
            raise ValidationError({"name": _("A name cannot be empty.")})


class NameWord(models.Model):
    """One distinct word of the games' folded names: the vocabulary a misspelt query
    word is matched against before games are looked up (see catalog/search.py)."""

    word = models.CharField(max_length=100, primary_key=True)

    class Meta:
        verbose_name = _("name word")
        verbose_name_plural = _("name words")

    def __str__(self) -> str:
        return self.word

    @classmethod
    def add_from(cls, keys: list[str]) -> None:
        words = {w[:100] for key in keys for w in key.replace("|", " ").split()}
        if words:
            cls.objects.bulk_create([cls(word=w) for w in sorted(words)], ignore_conflicts=True, batch_size=2000)


class Edition(models.Model):
    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="editions")
    title = models.CharField(_("title on this edition"), max_length=300, blank=True)
    language = models.CharField(_("language"), max_length=2, choices=LANGUAGES + [("xx", _("other"))])
    publisher = models.ForeignKey(Publisher, verbose_name=_("publisher"), null=True, blank=True, on_delete=models.SET_NULL)
    year = models.SmallIntegerField(_("year"), null=True, blank=True)
    ean = models.CharField(_("EAN"), max_length=13, blank=True, validators=[validate_ean])

    class Meta:
        ordering = ["game", "year"]
        verbose_name = _("edition")
        verbose_name_plural = _("editions")

    def __str__(self) -> str:
        parts = [self.title or self.game.title, self.publisher.name if self.publisher else "", str(self.year or "")]
        return " · ".join(p for p in parts if p)


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


class DocumentQuerySet(models.QuerySet):
    def visible_to(self, user) -> DocumentQuerySet:
        if user is not None and user.is_authenticated and user.is_staff:
            return self
        allowed = [Document.Visibility.PUBLIC]
        if user is not None and user.is_authenticated:
            allowed.append(Document.Visibility.GUESTS)
        return self.filter(visibility__in=allowed)


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
    # The type was read from the bytes (catalog.services.check_upload), never the name's.
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
    (see catalog/sections.py)."""

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
