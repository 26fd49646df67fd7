"""Pure game engines: no Django, no I/O. See base.py for the protocol every game implements."""
