"""The collection: games, their names in several languages, their editions, the
people and publishers behind them, and their categories, mechanics and themes.

The shelves (catalog.shelves) and the rulebooks (catalog.rulebooks) build on these
tables; this module imports neither."""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Count, Q
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from catalog import media
from catalog import text as textlib
from catalog.collection import query
from ludo import typography

LANGUAGES = [("fr", _("French")), ("de", _("German")), ("en", _("English"))]
# Weight bands of the filter: [low, high) on BoardGameGeek's 1-5 scale.
WEIGHT_BANDS = {"light": (1, 2), "medium": (2, 3.25), "heavy": (3.25, 5.01)}
# BoardGameGeek's "no upper limit" (a maximum above this): stored as this number,
# so that an empty maximum only ever means "unknown".
MAX_PLAYERS_OPEN = 100
TITLE_LANGUAGES = ("fr", "de", "en")  # kept in Game.title_<language> for display


def unique_slug(model: type[models.Model], base: str, exclude_pk: int | None = None) -> str:
    root = slugify(textlib.fold(base))[:70] or "x"
    slug, n = root, 2
    qs = model.objects.all()
    if exclude_pk:
        qs = qs.exclude(pk=exclude_pk)
    while qs.filter(slug=slug).exists():
        slug, n = f"{root}-{n}", n + 1
    return slug


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


def _on_shelf() -> str:
    """The status of a copy on the shelf, read from the shelves' Copy through the
    relation: the shelves build on the collection, never the other way round."""
    return Game._meta.get_field("copies").related_model.Status.AVAILABLE


class GameQuerySet(models.QuerySet):
    def available_now(self) -> GameQuerySet:
        """Games with a copy on the shelf now (a game printed inside another's box
        counts when that box is on the shelf)."""
        on_shelf = _on_shelf()
        return self.filter(
            Q(copies__status=on_shelf) | Q(kind=Game.Kind.IN_BOX, base_game__copies__status=on_shelf)
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

    def for_page(self) -> GameQuerySet:
        """What a game's pages (its page, its rules) show of it, in a few queries."""
        return self.select_related("base_game").prefetch_related(
            "designers", "artists", "publishers", "terms", "editions__publisher", "children", "names",
        )

    def with_card_data(self) -> GameQuerySet:
        """What a result card shows, in one query."""
        return self.annotate(
            available_copies=Count("copies", filter=Q(copies__status=_on_shelf()), distinct=True)
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
    title_pending = models.BooleanField(
        _("title correction pending"), default=False,
        help_text=_(
            "The title looks garbled and no certain repair is known yet (catalog/data/title-repairs.csv)."
        ),
    )
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
        """The name in the page's language (its primary one), else the original; on a French
        page with French typography ("Qui l'a vu ?" keeps its mark on its line)."""
        lang = (get_language() or "fr")[:2]
        title = getattr(self, f"title_{lang}", "") or self.title
        return typography.french(title) if lang == "fr" else title

    @cached_property
    def original_title(self) -> str:
        """The original name, when it is not the one displayed (shown beside it)."""
        return self.title if textlib.fold(self.title) != textlib.fold(self.display_title) else ""

    @cached_property
    def initial(self) -> str:
        """The letter of the cover placeholder: the displayed name's first
        significant word's ("Les Aventuriers du Rail" -> "A")."""
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
            self.adopt_titles()

    def adopt_titles(self) -> None:
        """Names for the per-language titles a game was created with (demo content, old
        data): each becomes the primary name of its language when it has none."""
        existing = {(n.language, n.name) for n in self.names.all()}
        primaries = {n.language for n in self.names.all() if n.primary}
        added = False
        for language in TITLE_LANGUAGES:
            title = " ".join(getattr(self, f"title_{language}", "").split())
            if title and (language, title) not in existing:
                GameName.objects.create(
                    game=self, language=language, name=title, primary=language not in primaries,
                )
                added = True
        if added:
            refresh_titles([self])

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

    class Kind(models.TextChoices):
        CURRENT = "current", _("current")
        FORMER = "former", _("former title")

    class Source(models.TextChoices):
        UNKNOWN = "", _("unknown")
        EDITION = "edition", _("the box of a French edition")
        PUBLISHER = "publisher", _("the publisher's catalogue")
        LIBRARY = "library", _("a ludothèque's record")
        TRADITIONAL = "traditional", _("the traditional name of the game")

    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="names")
    language = models.CharField(_("language"), max_length=2, validators=[validate_name_language], help_text=_("fr, en, de, it, es..."))
    name = models.CharField(_("name"), max_length=300)
    primary = models.BooleanField(_("primary in this language"), default=False)
    # A former title (the box carried it for years: "Pandémie") is found by search
    # but never shown as the game's title.
    kind = models.CharField(_("kind of name"), max_length=8, choices=Kind.choices, default=Kind.CURRENT)
    source = models.CharField(
        _("source"), max_length=12, choices=Source.choices, default=Source.UNKNOWN, blank=True
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("added by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )

    class Meta:
        ordering = ["game", "language", "-primary", "id"]
        verbose_name = _("name")
        verbose_name_plural = _("names")
        constraints = [
            models.UniqueConstraint(fields=["game", "language", "name"], name="catalog_gamename_unique"),
            models.UniqueConstraint(
                fields=["game", "language"], condition=Q(primary=True), name="catalog_gamename_one_primary"
            ),
            models.CheckConstraint(
                condition=~Q(kind="former", primary=True), name="catalog_gamename_former_not_primary"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.language})"

    def clean(self) -> None:
        self.name = " ".join((self.name or "").split())
        if not self.name:
            raise ValidationError({"name": _("A name cannot be empty.")})
        if self.kind == self.Kind.FORMER and self.primary:
            raise ValidationError({"primary": _("A former title cannot be the one shown.")})


class NameWord(models.Model):
    """One distinct word of the games' folded names: the vocabulary a misspelt query
    word is matched against before games are looked up (see catalog/collection/search.py)."""

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


def titles_from(names: Iterable[GameName]) -> dict[str, str]:
    """The title shown in each display language: its primary name, else its first one."""
    titles = {language: "" for language in TITLE_LANGUAGES}
    for name in sorted(names, key=lambda n: (n.language, not n.primary, n.id or 0)):
        if name.kind == GameName.Kind.FORMER:
            continue
        if name.language in titles and not titles[name.language]:
            titles[name.language] = name.name
    return titles


def refresh_titles(games: Iterable[Game]) -> None:
    """Bring the games' display titles and search keys in step with their names."""
    games = list(games)
    if not games:
        return
    by_game: dict[int, list[GameName]] = {}
    for name in GameName.objects.filter(game__in=games):
        by_game.setdefault(name.game_id, []).append(name)
    for game in games:
        names = by_game.get(game.id, [])
        for language, title in titles_from(names).items():
            setattr(game, f"title_{language}", title)
        game.name_key = textlib.name_key(
            [game.title, *(n.name for n in names), *game.other_names.splitlines()]
        )
    fields = [f"title_{language}" for language in TITLE_LANGUAGES] + ["name_key"]
    Game.objects.bulk_update(games, fields, batch_size=1000)
    NameWord.add_from([g.name_key for g in games])
