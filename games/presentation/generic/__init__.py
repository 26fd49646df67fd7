"""The generic presentation: what an engine without a package of its own is shown with (base.Presentation).

Its templates (``games/generic/board.html``, ``node.html``, ``rules.html``) live in ``templates/`` here.
"""
