"""The catalogue's addresses, all under the ``catalog:`` namespace; each room
lists its own pages (the play log has its own namespace, catalog.playlog.urls)."""

from django.urls import include, path

app_name = "catalog"
urlpatterns = [
    path("", include("catalog.collection.urls")),
    path("", include("catalog.shelves.urls")),
    path("", include("catalog.rulebooks.urls")),
]
