"""Staff screens of the rulebooks: documents with their scans or text export (text
extracted in the background), translations, the pages to check."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import Count, Q
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from catalog.errors import CatalogError
from catalog.rulebooks import extraction, services, text_import
from catalog.rulebooks.models import Document, DocumentFile
from catalog.rulebooks.uploads import Upload, check_upload
from ludo import uploads as uploads_limit


class DocumentForm(forms.ModelForm):
    upload = forms.FileField(
        label=_("Add scans or a text export"), required=False,
        widget=forms.ClearableFileInput(attrs={"allow_multiple_selected": True}),
        help_text=_(
            "PDF or images, in page order; kept unaltered. Their text is extracted in the background. "
            "Or one text export (.txt, .md, UTF-8) for a document with no file yet: its pages are ready at once."
        ),
    )

    class Meta:
        model = Document
        fields = "__all__"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["upload"].widget.attrs["multiple"] = True
        self.uploads: list[Upload] = []
        self.text_upload: Upload | None = None

    def clean_upload(self):
        files = self.files.getlist("upload") if self.files else []
        for f in files:
            uploads_limit.check_size(f)  # past the limit, nothing of it was kept (ludo.uploads)
        uploads = [Upload(f.name, f.read()) for f in files]
        # A text export: named .txt or .md and not a scan in disguise.
        texts = [u for u in uploads if text_import.is_text_name(u.name) and not extraction.sniff_content_type(u.data)]
        try:
            if texts:
                if len(uploads) > 1:
                    raise CatalogError(_("Upload a text export alone, one per document."))
                if self.instance.pk and (self.instance.files.exists() or self.instance.pages.exists()):
                    raise CatalogError(
                        _("This document already has files; a text export makes a new document.")
                    )
                text_import.read_text_upload(texts[0])
                self.text_upload = texts[0]
                return None
            for upload in uploads:
                check_upload(upload)
        except CatalogError as exc:
            raise forms.ValidationError(str(exc)) from None
        self.uploads = uploads
        return None


class DocumentFileInline(admin.TabularInline):
    model = DocumentFile
    extra = 0
    fields = ["original_name", "content_type", "size", "sha256"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    form = DocumentForm
    list_display = ["title", "game", "kind", "language", "visibility", "status", "pages_to_check", "reader_link"]
    list_filter = ["status", "kind", "language", "visibility"]
    search_fields = ["title", "game__title"]
    autocomplete_fields = ["game", "original"]
    readonly_fields = ["status", "status_error", "processed_at", "reader_link", "pages_to_check"]
    inlines = [DocumentFileInline]
    actions = ["extract_again"]
    fields = [
        "game", "edition", "title", ("kind", "language"), "original", ("translator", "source"), "licence_note",
        "visibility", "upload", ("status", "processed_at", "reader_link"), "pages_to_check", "status_error",
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            to_check=Count("pages", filter=Q(pages__needs_check=True, pages__checked_at__isnull=True))
        )

    @admin.display(description=_("Reader"))
    def reader_link(self, obj):
        return format_html('<a href="{}">{}</a>', obj.get_absolute_url(), _("open")) if obj.pk else "-"

    @admin.display(description=_("Pages to check"), ordering="to_check")
    def pages_to_check(self, obj):
        if not obj.pk:
            return "-"
        count = getattr(obj, "to_check", None)
        if count is None:
            count = obj.pages_to_check().count()
        label = ngettext("%(n)d page to check", "%(n)d pages to check", count) % {"n": count} if count else _("none")
        return format_html('<a href="{}">{}</a>', obj.review_url(), label)

    def save_model(self, request, obj, form, change):
        with transaction.atomic():
            language_changed = change and "language" in form.changed_data
            super().save_model(request, obj, form, change)
            if language_changed:
                services.change_document_language(obj, obj.language)
            if form.text_upload is not None:
                services.attach_text(obj, form.text_upload)
                messages.info(request, _("The text export is stored and split into %(n)d page(s).") % {
                    "n": obj.pages.count()})
            elif form.uploads:
                services.add_files(obj, form.uploads)
                messages.info(request, _("The files are stored; their text is being extracted."))

    @admin.action(description=_("Extract the text again"))
    def extract_again(self, request, queryset):
        done = 0
        for document in queryset:
            try:
                services.queue_extraction(document)
                done += 1
            except CatalogError as exc:
                messages.warning(request, f"{document}: {exc}")
        messages.info(request, _("%(n)d document(s) queued.") % {"n": done})
