from django.urls import path
from django.utils.translation import gettext_lazy as _

from catalog.playlog import views

app_name = "playlog"
urlpatterns = [
    path(_("plays/"), views.mine, name="mine"),
    path(_("plays/log/"), views.log, name="log"),
    path(_("plays/games.json"), views.games, name="games"),
    path(_("plays/year/"), views.year, name="year"),
    path(_("plays/<num:pk>/"), views.edit, name="edit"),
    path(_("plays/<num:pk>/delete/"), views.delete, name="delete"),
]
