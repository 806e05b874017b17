"""The Celery task that prints a report, named here for Celery's autodiscovery.

The task itself, ``render_report``, lives in ``services`` beside the services that
send it and that it runs (see README.md, "Where the task lives"): this module
imports ``services``, and ``services`` never imports it.
"""

from __future__ import annotations

from .services import render_report

__all__ = ["render_report"]
