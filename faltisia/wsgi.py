import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

from faltisia.memory import loaded_objects_freeze
from games.active_requests import ActiveRequestLimit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faltisia.settings")
# At most settings.WEB_ACTIVE_REQUESTS requests of this process run at once (games/active_requests.py).
application = ActiveRequestLimit(get_wsgi_application(), settings.WEB_ACTIVE_REQUESTS)
loaded_objects_freeze(urls=True)
