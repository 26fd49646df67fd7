"""Reproducible measurements (each script prints its figures); see benchmarks/README.md."""
