"""The boxes themselves (issue #26): what each box holds, counting it after it
was played, the pieces found missing traced to the evenings the box went out,
whether a box can still be played, the hosts' list of boxes to count, and the
guests' reports from a box's QR page.

    models     contents (per game, per copy), counts, shortfalls, stray pieces, guest reports
    contents   what a copy should hold: its own list, else its game's
    counting   a count of one copy (one wins when two hosts count at once)
    tracing    the sessions and plays of a copy since its last complete count
    status     incomplete / not playable, for the picker and the booking forms
    tocount    the hosts' list of boxes to count
    guests     "a piece is missing" / "I found a piece" from the QR page
    summary    the weekly email to the hosts (outbox)
    csvimport  contents from a CSV file (manage.py import_contents)
    reports    missing parts by game, copies not counted for months (CSV)
"""
