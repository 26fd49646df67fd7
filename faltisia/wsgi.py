import os

from django.core.wsgi import get_wsgi_application

from faltisia.memory import loaded_objects_freeze

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faltisia.settings")
application = get_wsgi_application()
loaded_objects_freeze(urls=True)
