"""The Celery tasks that e-mail the score cards, named here for Celery's autodiscovery.

They live in ``services`` beside the services they run (as the print tasks do): this
module imports ``services``, and ``services`` never imports it.
"""

from __future__ import annotations

from .services import mail_score_cards, send_score_card

__all__ = ["mail_score_cards", "send_score_card"]
