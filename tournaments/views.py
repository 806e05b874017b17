"""Public pages: the list of events and what each has published."""

from django.shortcuts import render

from .models import Event


def home(request):
    events = Event.objects.all()[:50]
    return render(request, "tournaments/home.html", {"events": events})
