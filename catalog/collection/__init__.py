"""The collection: the games themselves.

    models    games, their names per language, editions, people, publishers, terms
    names     names shown beside a game's title; the alternate-names import
    importer  BoardGameGeek CSV files in (games, themes, names), line by line
    csv_rows  reading an import file so that a bad line only rejects itself
    mojibake  titles garbled by a past encoding error, repaired when certain
              (by rule, or by the reviewed mapping catalog/data/title-repairs.csv)
    title_repairs  the repairs applied to games already in the catalogue
    query     what a title query means, word by word (no Django)
    search    title search on SQLite and PostgreSQL (a vocabulary in memory)
    picker    "what to play?": a ranked shortlist, or tables for a large group
    forms     the list's filters, the picker's questions
    views     the list of games, a game's page, the picker
    admin     staff screens: games (names, editions, copies), people, terms
"""
