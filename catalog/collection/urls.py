from django.urls import path
from django.utils.translation import gettext_lazy as _

from catalog.collection import views

urlpatterns = [
    path("", views.index, name="index"),
    path(_("what-to-play/"), views.pick, name="pick"),
    path(_("game/<slug:slug>/"), views.game_detail, name="game"),
    path(_("french-names/"), views.missing_french_names, name="french_names"),
    path(_("french-names/<num:pk>/"), views.add_french_name, name="add_french_name"),
]
