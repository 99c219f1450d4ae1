"""Files uploaded before random names (catalog.media) get one, on disk and in their row.

Each file of a document (scans, text exports), each page image and each cover
named after what its uploader called it ("rules.html", "p001.png") is renamed to
``<folder>/<random>.<extension of its sniffed type>``. Idempotent: a name that is
already random is left alone. A row whose file is missing keeps its name (and
is reported); a file that cannot be renamed keeps its name too.
"""

from __future__ import annotations

import os
from pathlib import PurePosixPath

from django.core.files.storage import default_storage
from django.db import migrations

FIELDS = [
    ("DocumentFile", "file"), ("DocumentPage", "image"), ("DocumentPage", "thumbnail"), ("Game", "cover"),
]


def _new_name(old: str, text_row: bool) -> str | None:
    from catalog import media

    try:
        with default_storage.open(old, "rb") as handle:
            head = handle.read(media.HEAD_BYTES)
    except (FileNotFoundError, IsADirectoryError):
        return None
    kind = media.sniff(head) or ("text/plain" if text_row else None)
    return media.random_name(str(PurePosixPath(old).parent), kind)


def rename_files(apps, schema_editor) -> None:
    from catalog import media

    missing = 0
    for model_name, field_name in FIELDS:
        model = apps.get_model("catalog", model_name)
        rows = model.objects.exclude(**{field_name: ""}).exclude(**{f"{field_name}__isnull": True})
        for row in rows.iterator():
            old = getattr(row, field_name).name
            if not old or media.is_random_name(old):
                continue
            new = _new_name(old, getattr(row, "content_type", "") == "text/plain")
            if new is None:
                missing += 1
                continue
            try:
                os.rename(default_storage.path(old), default_storage.path(new))
            except OSError:
                missing += 1
                continue
            model.objects.filter(pk=row.pk).update(**{field_name: new})
    if missing:
        print(f"\n  private media: {missing} file(s) missing or not renamed; their rows keep their names")


class Migration(migrations.Migration):
    dependencies = [("catalog", "0007_sections")]

    operations = [migrations.RunPython(rename_files, migrations.RunPython.noop)]
