"""Bulkheads for the worker's jobs: one row a job cannot handle never stops it for the others.

The logic is ``ludo.bulkheads.guard`` (``Bulkhead``), the record of failures
``ludo.bulkheads.models.JobFailure``, the hosts' view ``ludo.bulkheads.admin``.
"""
