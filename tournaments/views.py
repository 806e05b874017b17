"""Public pages: the list of events and what each has published."""

from django.shortcuts import render

from .models import Event


def home(request):
    events = Event.objects.all()
    if not request.user.is_staff:
        # The public sees only what the director has published.
        events = events.exclude(published=Event.Published.NONE)
    events = events[:50]
    return render(request, "tournaments/home.html", {"events": events})
