"""Where Django loads the catalogue's models from (one app, ``catalog``): each
room keeps its own tables in its ``models`` module.

    catalog.collection.models  games, names, editions, people, publishers, terms
    catalog.shelves.models     copies on the shelves, missing parts, QR codes
    catalog.rulebooks.models   documents, their files and pages, section pairings

The play log (catalog.playlog) is an app of its own, with its own models.
"""

from catalog.collection.models import Edition, Game, GameName, NameWord, Person, Publisher, Term
from catalog.rulebooks.models import Document, DocumentFile, DocumentPage, SectionPairing
from catalog.shelves.models import Copy, MissingPart, QrCode

__all__ = [
    "Copy", "Document", "DocumentFile", "DocumentPage", "Edition", "Game", "GameName", "MissingPart",
    "NameWord", "Person", "Publisher", "QrCode", "SectionPairing", "Term",
]
