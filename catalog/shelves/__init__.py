"""The shelves: the physical boxes of the house.

    models    copies (shelf, condition, status, contents), missing parts, QR codes
    services  a copy added, its status changed, a missing part reported or found
    qr        QR codes of games and copies, drawn once and kept
    labels    the sheet of labels of a shelf
    forms     a missing part, as staff report it
    views     QR codes, the label sheet, a missing part reported
    admin     staff screens: copies and their missing parts
"""
