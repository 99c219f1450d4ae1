"""What the worker remembers of the rows its jobs failed on (ludo.bulkheads.guard)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class JobFailure(models.Model):
    """One row (a table, a booking, an email, a document...) one worker job
    failed on: how often, the last error, and whether it is set aside until
    a host looks at it. Deleted when the job next handles the row, or when
    the row no longer waits for that job (a host ended the table, say)."""

    job = models.CharField(_("job"), max_length=60)
    model = models.CharField(_("kind of row"), max_length=100)  # app_label.modelname
    row = models.CharField(_("row"), max_length=64)  # the row's primary key, as text
    failures = models.PositiveIntegerField(_("failures"), default=0)
    set_aside = models.BooleanField(_("needs a host"), default=False)
    retry_at = models.DateTimeField(_("next try"), null=True, blank=True)
    error = models.TextField(_("last error"), blank=True)
    traceback = models.TextField(_("traceback"), blank=True)
    first_failed_at = models.DateTimeField(_("first failure"))
    last_failed_at = models.DateTimeField(_("last failure"))

    class Meta:
        verbose_name = _("failed row of a background job")
        verbose_name_plural = _("failed rows of background jobs")
        ordering = ["-set_aside", "-last_failed_at"]
        constraints = [models.UniqueConstraint(fields=["job", "model", "row"], name="bulkheads_failure_row")]

    def __str__(self) -> str:
        return f"{self.job} {self.model} #{self.row} ({self.failures})"
