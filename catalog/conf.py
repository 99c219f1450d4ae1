"""Where the project's shared folder is: beside the repository, or LUDO_SHARED_DIR."""

from __future__ import annotations

import os
from pathlib import Path

from django.conf import settings


def shared_dir() -> Path:
    override = os.environ.get("LUDO_SHARED_DIR", "").strip()
    if override:
        return Path(override).expanduser().resolve()
    return Path(settings.BASE_DIR).parent / "shared"


def data_files() -> list[Path]:
    folder = shared_dir() / "data"
    return sorted(folder.glob("*.csv")) if folder.is_dir() else []


def seed_files() -> list[Path]:
    folder = shared_dir() / "seeds"
    return sorted(folder.glob("*.txt")) if folder.is_dir() else []
