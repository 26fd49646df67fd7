"""What table talk tells the layers above it, sent after the commit (``send_robust``).

- ``message_moderated(message, kind, actor, reason)``: staff hid or restored a message (kind "hide" /
  "restore"); the mail layer tells its author.
"""

from django.dispatch import Signal

message_moderated = Signal()
