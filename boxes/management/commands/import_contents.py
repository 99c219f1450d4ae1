"""manage.py import_contents FILE.csv: the games' contents templates from a CSV
(see boxes.csvimport); the problems are listed, the good games imported."""

from django.core.management.base import BaseCommand

from boxes import csvimport


class Command(BaseCommand):
    help = "Import games' contents (game,group,label,quantity,essential) from a CSV file."

    def add_arguments(self, parser):
        parser.add_argument("path")

    def handle(self, *args, path: str, **options):
        report = csvimport.import_file(path)
        for problem in report.errors:
            self.stderr.write(problem)
        self.stdout.write(report.summary())
