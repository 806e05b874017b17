from django.contrib import admin

from .models import Board


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "dealer", "deal"]
    list_filter = ["event"]
    search_fields = ["event__name"]
