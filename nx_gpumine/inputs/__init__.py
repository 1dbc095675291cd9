"""Inputs: graph containers, ingestion from NetworkX / frames / arrays, and query objects."""
