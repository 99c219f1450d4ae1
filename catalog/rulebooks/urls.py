from django.urls import path
from django.utils.translation import gettext_lazy as _

from catalog.rulebooks import views

urlpatterns = [
    path(_("game/<slug:slug>/rules/"), views.rules, name="rules"),
    path(_("rules/search/"), views.rules_search, name="rules_search"),
    path(_("rules/<num:pk>/page/<num:number>/"), views.reader, name="reader"),
    path(_("rules/<num:pk>/"), views.read, name="read"),
    path(_("rules/<num:pk>/sections/"), views.pairings, name="pairings"),
    path(_("rules/<num:pk>/page/<num:number>/correct/"), views.correct_page, name="correct_page"),
    path(_("rules/<num:pk>/to-check/"), views.document_review, name="document_review"),
    path(_("rules/<num:pk>/page/<num:number>/<str:size>.png"), views.page_image, name="page_image"),
    path(_("rules/<num:pk>/file/<num:file_id>/"), views.document_file, name="document_file"),
]
