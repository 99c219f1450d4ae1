"""Staff screens: games with their editions and copies, copies with missing parts,
rulebooks with their scans (text extracted in the background), translations."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db import models, transaction
from django.db.models import Count, Q
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from catalog import extraction, names, services, text_import
from catalog.models import Copy, Document, DocumentFile, Edition, Game, GameName, MissingPart, Person, Publisher, Term
from ludo import uploads as uploads_limit


class GameNameInline(admin.TabularInline):
    model = GameName
    extra = 1
    fields = ["language", "name", "primary"]


class EditionInline(admin.TabularInline):
    model = Edition
    extra = 0
    autocomplete_fields = ["publisher"]


class CopyInline(admin.StackedInline):
    model = Copy
    extra = 1
    fields = [("shelf", "status", "condition", "edition"), "contents", ("acquired_on", "acquired_from", "price"), "acquisition_note"]

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        if obj is not None:
            formset.form.base_fields["edition"].queryset = obj.editions.all()
        return formset


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    formfield_overrides = {models.ImageField: {"form_class": uploads_limit.LimitedImageField}}
    list_display = ["title", "year", "min_players", "max_players", "min_time", "bgg_id", "engine_slug"]
    list_filter = ["kind", "engine_slug"]
    search_fields = ["title", "names__name", "other_names", "=bgg_id"]
    autocomplete_fields = ["designers", "artists", "publishers", "terms", "base_game"]
    inlines = [GameNameInline, EditionInline, CopyInline]
    # The per-language titles follow the names below (the primary one of each language).
    readonly_fields = ["slug", "owned_count", "rating_count", "title_fr", "title_de", "title_en"]
    fieldsets = [
        (None, {"fields": [
            "title", ("title_fr", "title_de", "title_en"), "other_names", "slug", ("kind", "base_game"),
            "description", "cover",
        ]}),
        (_("People"), {"fields": ["designers", "artists", "publishers"]}),
        (_("Play"), {"fields": [
            ("min_players", "max_players"), ("best_min_players", "best_max_players"), ("min_time", "max_time", "teach_time"),
            ("min_age", "weight", "language_dependence"), "terms", "engine_slug",
        ]}),
        (_("Reference"), {"fields": ["year", "bgg_id", ("rating", "rating_count", "owned_count")]}),
    ]

    def get_search_results(self, request, queryset, search_term):
        results, duplicates = super().get_search_results(request, queryset, search_term)
        return results, True  # a game found by two of its names is listed once

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        names.refresh([form.instance])  # titles and search key follow the names


class MissingPartInline(admin.TabularInline):
    model = MissingPart
    extra = 1
    fields = ["description", "reported_at", "reported_by", "found_at"]
    readonly_fields = ["reported_by"]


@admin.register(Copy)
class CopyAdmin(admin.ModelAdmin):
    list_display = ["game", "shelf", "status", "condition"]
    list_filter = ["status", "condition"]
    search_fields = ["game__title", "shelf"]
    autocomplete_fields = ["game"]
    inlines = [MissingPartInline]

    def save_formset(self, request, form, formset, change):
        for row in formset.save(commit=False):
            if isinstance(row, MissingPart) and row.reported_by_id is None:
                row.reported_by = request.user
            row.save()
        for row in formset.deleted_objects:
            row.delete()


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
        self.uploads: list[services.Upload] = []
        self.text_upload: services.Upload | None = None

    def clean_upload(self):
        files = self.files.getlist("upload") if self.files else []
        for f in files:
            uploads_limit.check_size(f)  # past the limit, nothing of it was kept (ludo.uploads)
        uploads = [services.Upload(f.name, f.read()) for f in files]
        # A text export: named .txt or .md and not a scan in disguise.
        texts = [u for u in uploads if text_import.is_text_name(u.name) and not extraction.sniff_content_type(u.data)]
        try:
            if texts:
                if len(uploads) > 1:
                    raise services.CatalogError(_("Upload a text export alone, one per document."))
                if self.instance.pk and (self.instance.files.exists() or self.instance.pages.exists()):
                    raise services.CatalogError(
                        _("This document already has files; a text export makes a new document.")
                    )
                text_import.read_text_upload(texts[0])
                self.text_upload = texts[0]
                return None
            for upload in uploads:
                services.check_upload(upload)
        except services.CatalogError as exc:
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
                text_import.attach_text(obj, form.text_upload)
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
            except services.CatalogError as exc:
                messages.warning(request, f"{document}: {exc}")
        messages.info(request, _("%(n)d document(s) queued.") % {"n": done})


@admin.register(Person, Publisher)
class NamedAdmin(admin.ModelAdmin):
    search_fields = ["name"]
    readonly_fields = ["slug"]


@admin.register(Term)
class TermAdmin(admin.ModelAdmin):
    list_display = ["name_en", "name_fr", "kind"]
    list_filter = ["kind"]
    search_fields = ["name_en", "name_fr"]
