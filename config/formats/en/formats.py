"""How the site writes a date where a template gives no format of its own ("{{ e.date }}"):
"26 Nov 2026", as the pages that name one do ("j M Y"), and presenters.day for a date
the data carries as text. Every other format is Django's own for English."""

DATE_FORMAT = "j M Y"
