"""A player's rating per game, its history (one row per rated game), which
tables were rated, the seats left during a rated game, and the choice of a
private profile."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.ratings import glicko2

# A rating stays provisional while its deviation is above this (shown with a "?").
PROVISIONAL_RD = 110.0


class Rating(models.Model):
    """One account's current rating at one game (the engine's slug)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(_("game"), max_length=60)
    rating = models.FloatField(_("rating"), default=glicko2.DEFAULT_RATING)
    rd = models.FloatField(_("rating deviation"), default=glicko2.DEFAULT_RD)
    volatility = models.FloatField(_("volatility"), default=glicko2.DEFAULT_VOLATILITY)
    games = models.PositiveIntegerField(_("rated games"), default=0)
    last_played = models.DateTimeField(_("last rated game"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="ratings_rating_user_game")]
        indexes = [models.Index(fields=["game", "last_played"], name="ratings_rating_board")]

    def __str__(self) -> str:
        return f"{self.user} {self.game} {self.rating:.0f}"

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD

    def as_glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.rd, self.volatility)


class RatedGame(models.Model):
    """A finished rated table looked at by the rating service: once, ever (the
    table is the primary key). ``counted`` is false when the game was not
    rated after all (too short, nobody to rate); ``reason`` says why."""

    table = models.OneToOneField("games.Table", primary_key=True, on_delete=models.CASCADE, related_name="+")
    counted = models.BooleanField(default=True)
    reason = models.CharField(max_length=30, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rated game")
        verbose_name_plural = _("rated games")

    def __str__(self) -> str:
        return f"{self.table_id} {'rated' if self.counted else self.reason}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating (their rating history)."""

    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="rating_changes")
    game = models.CharField(max_length=60)
    seat = models.PositiveSmallIntegerField()
    # win / loss / draw against the field (more wins than losses in pairs = win)
    result = models.CharField(max_length=5)
    left = models.BooleanField(default=False)
    rating_before = models.FloatField()
    rd_before = models.FloatField()
    rating_after = models.FloatField()
    rd_after = models.FloatField()
    volatility_after = models.FloatField()
    created_at = models.DateTimeField()

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["table", "user"], name="ratings_change_once")]
        indexes = [models.Index(fields=["user", "game", "created_at"], name="ratings_change_history")]

    def __str__(self) -> str:
        return f"{self.user} {self.game} {self.rating_before:.0f}->{self.rating_after:.0f}"


class Departure(models.Model):
    """A person whose seat at a running rated table went to a bot (they left:
    resigned among several, were away past the grace period, were removed).
    The seat no longer names them; this row does, for the rating at the end."""

    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    version = models.PositiveIntegerField()  # the table's version when they left
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "seat"], name="ratings_departure_seat")]


class Privacy(models.Model):
    """A player's choice to keep their profile to themselves."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="rating_privacy")
    private = models.BooleanField(_("private profile"), default=False)

    class Meta:
        verbose_name = _("profile privacy")
        verbose_name_plural = _("profile privacy")
