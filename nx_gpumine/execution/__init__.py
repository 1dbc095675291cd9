"""Execution: split tasks across threads / GPUs / workers, merge partial results, progress."""
