from django.contrib import admin

from . import models


@admin.register(models.Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "rules", "kind", "method", "status", "published"]
    list_filter = ["status", "rules", "kind"]
    search_fields = ["name"]
    readonly_fields = ["seq"]


@admin.register(models.Section)
class SectionAdmin(admin.ModelAdmin):
    list_display = ["event", "name", "movement", "variant", "tables", "boards_per_round"]
    list_filter = ["event"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown here, changed only through the services (the director's console), which
    audit every change and keep the standings' caches right."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(models.Board)
class BoardAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "dealer", "deal"]
    list_filter = ["event"]
    search_fields = ["event__name"]


@admin.register(models.Player)
class PlayerAdmin(ReadOnlyAdmin):
    search_fields = ["name"]


@admin.register(models.Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "event"]
    list_filter = ["event"]


@admin.register(models.Pair)
class PairAdmin(ReadOnlyAdmin):
    list_display = ["number", "event", "section", "player_1", "player_2", "team"]
    list_filter = ["event"]
    raw_id_fields = ["player_1", "player_2"]


@admin.register(models.Meeting)
class MeetingAdmin(admin.ModelAdmin):
    list_display = ["section", "round", "table", "ns_pair", "ew_pair", "boards", "agreed_at"]
    list_filter = ["section__event"]


@admin.register(models.TableCode)
class TableCodeAdmin(admin.ModelAdmin):
    list_display = ["section", "table", "code"]


@admin.register(models.Result)
class ResultAdmin(ReadOnlyAdmin):
    list_display = [
        "event", "board", "ns_pair", "ew_pair", "ruling", "level", "denomination",
        "declarer", "doubled", "tricks", "ns_score", "status", "voided",
    ]
    list_filter = ["event", "status", "ruling", "voided"]


@admin.register(models.AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "event", "actor_label", "action", "result", "reason"]
    list_filter = ["event", "action"]


@admin.register(models.ReportJob)
class ReportJobAdmin(admin.ModelAdmin):
    list_display = ["event", "kind", "status", "done", "total", "updated_at"]


@admin.register(models.IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ["scope", "key", "status_code", "created_at"]


@admin.register(models.Irregularity)
class IrregularityAdmin(ReadOnlyAdmin):
    list_display = ["event", "board", "stage", "status", "outcome", "reported_by", "reported_at"]
    list_filter = ["stage", "status"]


@admin.register(models.Substitute)
class SubstituteAdmin(ReadOnlyAdmin):
    list_display = ["pair", "seat", "player", "from_round"]


class RubberDealInline(admin.TabularInline):
    model = models.RubberDeal
    fields = ["number", "dealer", "data"]
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(models.Rubber)
class RubberAdmin(ReadOnlyAdmin):
    """The score pads: kept and corrected on the pad itself, read here."""

    list_display = ["id", "game", "form", "created_at", "finished"]
    list_filter = ["game", "finished"]
    exclude = ["code"]  # the pad's key: whoever holds it may write on the pad
    inlines = [RubberDealInline]


class PartyPlayerInline(admin.TabularInline):
    model = models.PartyPlayer
    fields = ["number", "name", "member"]
class SeasonEventInline(admin.TabularInline):
    model = models.SeasonEvent
    fields = ["event"]
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(models.Party)
class PartyAdmin(ReadOnlyAdmin):
    """The party nights: run from the director's console (every write through the
    services, the corrections audited), read here."""

    list_display = ["id", "name", "date", "game", "status", "current_round", "rounds"]
    list_filter = ["game", "status"]
    inlines = [PartyPlayerInline]


@admin.register(models.PartyDeal)
class PartyDealAdmin(ReadOnlyAdmin):
    list_display = ["id", "table", "round", "number", "dealer"]
    readonly_fields = ["table", "round", "number", "dealer", "data"]
@admin.register(models.Season)
class SeasonAdmin(ReadOnlyAdmin):
    """Seasons: set up on the director's console (services.season_save checks them), read
    here."""

    list_display = ["name", "entrants", "counts", "rule", "best_of", "min_events", "published"]
    inlines = [SeasonEventInline]
