"""Mage Knight: First Reconnaissance (1-4 players) as a turn-server engine. See README.md for the module map."""
