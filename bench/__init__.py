"""Benchmarks (run as scripts; see README.md). A package so benchmarks can import each other."""
