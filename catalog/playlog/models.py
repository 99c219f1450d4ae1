"""A play of a physical box at the house: the game, the day, the players (names,
an account when one was picked), who won, the scores if kept, a note.

Who logged it is kept (an account, or a booking whose emailed link was used) so
that they can correct or delete it later; the hosts can change any. The rules a
play must follow are in ``rules`` and are checked by ``services`` before any row
is written.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Play(models.Model):
    game = models.ForeignKey("catalog.Game", verbose_name=_("game"), on_delete=models.PROTECT, related_name="plays")
    played_on = models.DateField(_("played on"), db_index=True)
    lowest_wins = models.BooleanField(_("lowest score wins"), default=False)
    negative_scores = models.BooleanField(_("scores can go below zero"), default=False)
    note = models.TextField(_("note"), blank=True, max_length=1000)
    session = models.ForeignKey("bookings.Session", verbose_name=_("session"), null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="plays")
    booking = models.ForeignKey("bookings.Booking", verbose_name=_("logged with the link of booking"), null=True,
                                blank=True, on_delete=models.SET_NULL, related_name="plays")
    logged_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("logged by"), null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="logged_plays")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-played_on", "-id"]
        verbose_name = _("play")
        verbose_name_plural = _("plays")
        indexes = [models.Index(fields=["game", "-played_on"], name="playlog_play_game_day")]

    def __str__(self) -> str:
        return f"{self.game} ({self.played_on:%Y-%m-%d})"

    def get_absolute_url(self) -> str:
        return reverse("playlog:edit", args=[self.pk])

    @property
    def has_scores(self) -> bool:
        return any(p.score is not None for p in self.players.all())


class Player(models.Model):
    """One seat of a play: a name as written, an account when one was picked."""

    play = models.ForeignKey(Play, on_delete=models.CASCADE, related_name="players")
    position = models.PositiveSmallIntegerField(_("order"), default=0)
    name = models.CharField(_("name"), max_length=60)
    # The name folded (case, accents, spaces): a name may appear once per play.
    name_key = models.CharField(max_length=60, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("account"), null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="plays")
    score = models.IntegerField(_("score"), null=True, blank=True)
    won = models.BooleanField(_("won"), default=False)

    class Meta:
        ordering = ["play", "position", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["play", "name_key"], name="playlog_player_name_once"),
            models.UniqueConstraint(fields=["play", "user"], condition=Q(user__isnull=False),
                                    name="playlog_player_account_once"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        from catalog.playlog.rules import name_key

        self.name = " ".join(self.name.split())
        self.name_key = name_key(self.name)
        super().save(*args, **kwargs)
