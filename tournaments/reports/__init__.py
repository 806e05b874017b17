"""Printed reports (PDF, reportlab): travellers, standings, personal score cards, guide cards.

base.py       the one renderer base: page size, margins, fonts with suit symbols, "page N of M"
pdfinternals.py  the only use of reportlab internals (the grid's document, binary streams)
documents.py  one renderer per document; plain data in, (filename, mimetype, bytes) out
services.py   asking for a report, sending it to the worker, running it, re-sending waiting jobs;
              the Celery task too (render_report: takes a job id, calls report_run)
tasks.py      names the task for Celery's autodiscovery (imports services, never the reverse)
views.py      the director's print room: POST → 202 + status URL, progress, the file
See README.md here for how printing behaves when Redis or the worker is down.
"""
