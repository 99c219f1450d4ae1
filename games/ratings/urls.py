"""Leaderboards and player profiles. Names without a namespace (other pages
link to them): ``leaderboards``, ``leaderboard`` (a game's slug),
``player_profile`` (a username)."""

from django.urls import path
from django.utils.translation import gettext_lazy as _

from games.ratings import views

urlpatterns = [
    path(_("play/leaderboards/"), views.leaderboards, name="leaderboards"),
    path(_("play/leaderboards/<slug:game>/"), views.leaderboard, name="leaderboard"),
    path(_("players/<str:username>/"), views.player_profile, name="player_profile"),
]
