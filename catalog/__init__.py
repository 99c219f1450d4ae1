"""The catalogue of the house: one Django app (``catalog``), in rooms named for
what they hold.

    collection/  the games: names, editions, people, terms; import, title search,
                 the picker ("what to play?") and the catalogue's list and game pages
    shelves/     the boxes on the shelves: copies, missing parts, QR codes, labels
    rulebooks/   documents, their scans and pages: text extraction (OCR), sections
                 and the reader, the rules search, glossaries, board diagrams
    playlog/     what was played on the boxes (an app of its own, label ``playlog``)

Each room builds only on the rooms listed before it (the play log on the
collection and the shelves); pages may show any room (a game's page lists its
copies and rulebooks). tests/catalog/test_layout.py checks both, and that no
module imports another that imports it back.

Shared by the rooms: text (folding, stemming, pages, noise; no Django), media
(private files), errors (CatalogError), search_schema (the search indexes of names
and pages, made by migrations), conf (the shared data folder). Django's
entry points stay here: models (imports each room's tables), admin, urls, apps,
templatetags, management commands, migrations; demo fills every room.
"""
