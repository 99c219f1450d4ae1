"""The rulebooks: documents of a game and everything read from them.

    models       documents, their files and pages, section pairings
    uploads      files checked by their bytes and size, stored under random names
    services     a document added from scans or a text export, pages corrected,
                 translations linked
    text_import  the checks of a text export (.txt, .md)
    extraction   the worker's side of text extraction: claims, limits, pages saved
    extractor    the process that reads the scans under limits (no Django)
    ocr          scans made easier for tesseract; its confidence per page
    ocr_review   staff's review of the pages the OCR was unsure of
    jobs         the worker's job that extracts waiting documents
    markdown     the bit of Markdown text exports use, as safe HTML
    sections     rulebooks as sections; a translation aligned with its original
    reading      what the reader shows: sections beside their counterparts
    glossary     each playable game's terms in three languages; usual headings
    rules_search full-text search in the rulebooks
    diagrams     board diagrams drawn from an engine's view of a position
    demo_links   the demo's translations linked to their original
    forms        the page correction form
    views        a game's rules, the reader, the rules search, staff screens, media files
    admin        staff screens: documents, their uploads, pages to check
"""
