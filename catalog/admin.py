"""Where Django's admin finds the catalogue's staff screens: each room keeps its
own (catalog.collection.admin, catalog.shelves.admin, catalog.rulebooks.admin), and
importing them registers them."""

from catalog.collection import admin as collection_admin
from catalog.rulebooks import admin as rulebooks_admin
from catalog.shelves import admin as shelves_admin

__all__ = ["collection_admin", "rulebooks_admin", "shelves_admin"]
