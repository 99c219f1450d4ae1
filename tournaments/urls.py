from django.urls import path
from django.utils.translation import gettext_lazy as _

from tournaments import views

app_name = "tournaments"
urlpatterns = [
    # /tournois/ and /en/tournaments/ (French paths in locale/fr).
    path(_("tournaments/"), views.join, name="join"),
    path(_("tournaments/new/"), views.new, name="new"),
    path(_("tournaments/code/<str:code>/"), views.join_code, name="code"),
    path(_("tournaments/<num:pk>/"), views.screen, name="screen"),
    path(_("tournaments/<num:pk>/live/"), views.live, name="live"),
    path(_("tournaments/<num:pk>/results/"), views.results, name="results"),
    path(_("tournaments/<num:pk>/me/"), views.player, name="player"),
    path(_("tournaments/<num:pk>/me.json"), views.me, name="me"),
    path(_("tournaments/<num:pk>/act/"), views.act, name="act"),
    path(_("tournaments/<num:pk>/berserk/"), views.berserk, name="berserk"),
]
