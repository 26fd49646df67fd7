"""Engine test settings: one hypothesis profile sized for a 2-core machine (ENGINE_EXAMPLES overrides)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("engine", max_examples=int(os.environ.get("ENGINE_EXAMPLES", "150")), deadline=None,
                          suppress_health_check=[HealthCheck.too_slow], derandomize=True)
settings.load_profile("engine")
