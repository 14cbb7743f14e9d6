"""Benchmarks: heavy measurements that print numbers (make bench), kept out of the test suite."""
