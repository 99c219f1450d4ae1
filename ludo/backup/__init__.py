"""Backups that restore: ``manage.py backup`` and ``manage.py restore`` (README, "Backups").

- :mod:`ludo.backup.service`: make a backup, restore one (the commands call these);
- :mod:`ludo.backup.archive`: the tar, its manifest, and the checks a restore makes of it;
- :mod:`ludo.backup.databases`: the database half, per engine (pg_dump/pg_restore, SQLite's backup API).
"""

from ludo.backup.service import BackupError, make_backup, restore_backup

__all__ = ["BackupError", "make_backup", "restore_backup"]
