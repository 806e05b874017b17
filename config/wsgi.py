"""WSGI entry point (gunicorn config.wsgi)."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

# Everything loaded so far (Django, the apps, the URLs, the templates' loaders) lives as long
# as the process: the collector need not walk it again on every full collection, which under
# load cost the workers some 8% of their CPU. gunicorn --preload forks after this, so the
# workers also share those pages rather than each copying them as the collector touches them.
gc.freeze()
