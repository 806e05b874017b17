"""Printed reports (PDF, reportlab): travellers, standings, personal score cards, guide cards.

base.py       the one renderer base: page size, margins, fonts with suit symbols, "page N of M"
documents.py  one renderer per document; plain data in, (filename, mimetype, bytes) out
services.py   asking for a report, sending it to the worker, running it, re-sending waiting jobs
tasks.py      the Celery task (takes a job id, calls services.report_run)
views.py      the director's print room: POST → 202 + status URL, progress, the file
See README.md here for how printing behaves when Redis or the worker is down.
"""
