from django.apps import AppConfig


class BoardsHistoryConfig(AppConfig):
    """The old ``boards`` app's label and migrations, and nothing else."""

    name = "tournaments.boards_history"
    label = "boards"  # the label the applied migrations are recorded under
    verbose_name = "Boards (migration history only)"
