from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = _("Catalogue")

    def ready(self) -> None:
        from catalog import search_schema
        from catalog.rulebooks import jobs
        from ludo import worker

        post_migrate.connect(search_schema.post_migrate, sender=self, dispatch_uid="catalog-search-schema")
        worker.register("catalog.extract_text", jobs.extract_pending_documents, lane=worker.DOCUMENTS)
