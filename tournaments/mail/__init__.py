"""The players' personal score cards by e-mail, once the standings are published final.

``cards`` writes one pair's card as text and as the PDF the print room makes; ``optout``
signs and reads the one-click opt-out link; ``services`` records each send
(``ScoreCardMail``), sends it, and holds the Celery tasks beside it (as the reports do);
``tasks`` names them for Celery's autodiscovery.
"""
