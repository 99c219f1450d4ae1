from django.urls import path
from django.utils.translation import gettext_lazy as _

from boxes import shelfviews, views

app_name = "boxes"
urlpatterns = [
    path("", views.to_count, name="to_count"),
    path(_("box/<num:pk>/count/"), views.count, name="count"),
    path(_("box/<num:pk>/stray/"), views.stray, name="stray"),
    path(_("box/<num:pk>/contents/"), views.copy_contents, name="copy_contents"),
    path(_("box/<num:pk>/missing-piece/"), views.guest_missing, name="guest_missing"),
    path(_("box/<num:pk>/found-piece/"), views.guest_found, name="guest_found"),
    path(_("missing/<num:pk>/playable/"), views.blocking, name="blocking"),
    path(_("game/<slug:slug>/contents/"), views.game_contents, name="game_contents"),
    path(_("item/<num:pk>/picture/"), views.item_picture, name="item_picture"),
    path(_("reports/"), views.guest_reports, name="reports"),
    path(_("reports/<num:pk>/photo/"), views.report_photo, name="report_photo"),
    path(_("missing-parts.csv"), views.missing_csv, name="missing_csv"),
    path(_("not-counted.csv"), views.not_counted_csv, name="not_counted_csv"),
    path(_("shelf-checks/"), shelfviews.checks, name="shelf_checks"),
    path(_("shelf-checks/<num:pk>/"), shelfviews.scanner, name="shelf_scanner"),
    path(_("shelf-checks/<num:pk>/scan/"), shelfviews.scan, name="shelf_scan"),
    path(_("shelf-checks/<num:pk>/find/"), shelfviews.find, name="shelf_find"),
    path(_("shelf-checks/<num:pk>/tally/"), shelfviews.tally, name="shelf_tally"),
    path(_("shelf-checks/<num:pk>/report/"), shelfviews.report, name="shelf_report"),
    path(_("shelf-checks/<num:pk>/correct/"), shelfviews.correct, name="shelf_correct"),
    path(_("shelf-checks/<num:pk>/finish/"), shelfviews.finish, name="shelf_finish"),
]
