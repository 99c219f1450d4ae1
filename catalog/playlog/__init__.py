"""The play log: what was played on the boxes of the house, by whom, who won (an
app of its own, label ``playlog``; see docs/playlog.md). It builds on the
collection (the game played) and the shelves (the boxes).

    models    plays and their players
    rules     what a play must be before it is saved (no database)
    services  log, change, delete a play, and who may do which
    people    the names a play form proposes
    access    who a request speaks for: an account, or a booking's link
    stats     what the log tells: plays of a game, a group's games, the year
    forms     the play form
    views     log a play, my plays, the year's most and least played
    admin     staff screens of the plays
"""
