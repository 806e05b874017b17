"""Who may see and do what, as DRF permissions: thin adapters over tournaments.access.

- The director (a staff user with a session) sees and does everything.
- A table sees its own event, and inside it only its own section and table:
  its meetings, its results, the travellers the access policy lets it see.
- The public reads published events only (Event.published is provisional or final).

An event a caller may not see is answered 404, as if it did not exist; inside an
event it may see, acting outside its own table is 403.

A permission that needs a caller (the director or a table) says so in ``needs_caller``,
for the OpenAPI schema (schema.py documents 401 and 403 where it is true).
"""

from django.db.models import QuerySet
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import SAFE_METHODS, BasePermission

from .. import access, services
from ..models import Event, Meeting, TableCode
from .auth import is_director, table_of

NOT_PUBLISHED = access.NOT_PUBLISHED


class CallerPermission(BasePermission):
    """A permission that, for some methods, needs the director or a table."""

    def needs_caller(self, method: str) -> bool:
        return True


class IsDirector(CallerPermission):
    message = "only the director can do this: log in as the director"

    def has_permission(self, request, view) -> bool:
        return is_director(request)


class IsDirectorOrTable(CallerPermission):
    message = "only the director or a table (with its table code) can do this"

    def has_permission(self, request, view) -> bool:
        return is_director(request) or table_of(request) is not None


class IsTable(CallerPermission):
    message = "send your table code: Authorization: Table <code>"

    def has_permission(self, request, view) -> bool:
        return table_of(request) is not None


class CanSeeEvent(BasePermission):
    """The event in the URL must be visible to the caller (else 404); it is kept on the view."""

    def has_permission(self, request, view) -> bool:
        event_id = view.kwargs.get("event_id")
        if event_id is not None:
            view.event = event_for(request, event_id)
        return True


class PublishedOrDirector(BasePermission):
    """Standings and score cards: the director's always, everyone's once published.
    (Listed after CanSeeEvent, which loads the event.)"""

    message = NOT_PUBLISHED

    def has_permission(self, request, view) -> bool:
        return access.may_see_standings(access.api_caller(request), view.event)


class ReadAnyoneWriteDirector(CallerPermission):
    """Reading is for anyone who can see the event; changing it is the director's."""

    message = IsDirector.message

    def needs_caller(self, method: str) -> bool:
        return method not in SAFE_METHODS

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or is_director(request)


# --- object level -------------------------------------------------------------------------


def visible_events(request) -> QuerySet[Event]:
    """The events this caller may see at all."""
    return access.visible_events(access.api_caller(request))


def event_for(request, event_id: int) -> Event:
    """The event, if this caller may see it; else 404, the same as for an id no event has
    (access.shown_event)."""
    caller = access.api_caller(request)
    table = caller.table
    if table is not None and table.section.event_id == event_id:
        found = table.section.event  # read with the table's code, in this request
    else:
        found = Event.objects.filter(pk=event_id).first()
    event = access.shown_event(caller, found)
    if event is None:
        raise NotFound(access.NO_SUCH_EVENT)
    # The correction period may have ended since anyone last looked.
    return services.event_final_if_due(event=event)


def table_in_event(request, event: Event) -> TableCode | None:
    """The calling table, which must belong to this event; None for the director."""
    table = table_of(request)
    if table is None:
        return None
    if table.section.event_id != event.pk:
        raise PermissionDenied("this table code belongs to another event")
    return table


def require_own_table(request, event: Event, section_name: str, table_number: int) -> None:
    """A table may only address its own section and table; the director any."""
    table = table_in_event(request, event)
    if table is None:
        return
    if table.section.name != section_name or table.table != table_number:
        raise PermissionDenied(
            f"this is table {table.table} of section {table.section.name}: "
            "a table can only see and enter its own rounds"
        )


def require_own_meeting(request, event: Event, meeting: Meeting | None) -> None:
    """A table may only touch results of its own meetings."""
    table = table_in_event(request, event)
    if table is None:
        return
    if meeting is None or meeting.section_id != table.section_id or meeting.table != table.table:
        raise PermissionDenied("a table can only see and change the boards played at its table")
