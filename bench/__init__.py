"""Benchmarks: ``make bench`` (``python -m bench``) prints one table of figures and
writes it to docs/benchmarks.md. See bench/__main__.py for what is measured and how.

Benchmarks report, they do not fail. Their code is kept from rotting by
tests/bench/test_bench_smoke.py, which runs it on tiny sizes.
"""
