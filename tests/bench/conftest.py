import pytest
from django.conf import settings


@pytest.fixture
def database_url() -> str:
    """The test database's URL, for the processes the bench starts (gunicorn, itself)."""
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
