from django.urls import path

from catalog import views

app_name = "catalog"
urlpatterns = [
    path("", views.index, name="index"),
    path("quoi-jouer/", views.pick, name="pick"),
    path("jeu/<slug:slug>/", views.game_detail, name="game"),
    path("jeu/<slug:slug>/regles/", views.rules, name="rules"),
    path("jeu/<slug:slug>/qr.svg", views.game_qr, name="game_qr"),
    path("exemplaire/<int:pk>/qr.svg", views.copy_qr, name="copy_qr"),
    path("exemplaire/<int:pk>/manque/", views.report_missing, name="report_missing"),
    path("etiquettes/", views.labels, name="labels"),
    path("regles/recherche/", views.rules_search, name="rules_search"),
    path("regles/<int:pk>/page/<int:number>/", views.reader, name="reader"),
    path("regles/<int:pk>/", views.read, name="read"),
    path("regles/<int:pk>/sections/", views.pairings, name="pairings"),
    path("regles/<int:pk>/page/<int:number>/corriger/", views.correct_page, name="correct_page"),
    path("regles/<int:pk>/page/<int:number>/<str:size>.png", views.page_image, name="page_image"),
    path("regles/<int:pk>/fichier/<int:file_id>/", views.document_file, name="document_file"),
]
