from django.apps import AppConfig


class BoardsConfig(AppConfig):
    name = "boards"
    verbose_name = "Boards and movements"
