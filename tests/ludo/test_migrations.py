"""The migrations describe the models exactly: a model change without its
migration would pass every test (they build the schema from the migrations)
and break the first deployment that migrates."""

from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_model_change_lacks_a_migration():
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exc:  # --check exits with 1 when a migration is missing
        pytest.fail(f"models changed without a migration (exit {exc.code}):\n{out.getvalue()}")
