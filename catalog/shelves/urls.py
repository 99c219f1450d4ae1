from django.urls import path
from django.utils.translation import gettext_lazy as _

from catalog.shelves import views

urlpatterns = [
    path(_("game/<slug:slug>/qr.svg"), views.game_qr, name="game_qr"),
    path(_("copy/<num:pk>/qr.svg"), views.copy_qr, name="copy_qr"),
    path(_("copy/<num:pk>/missing/"), views.report_missing, name="report_missing"),
    path(_("labels/"), views.labels, name="labels"),
]
