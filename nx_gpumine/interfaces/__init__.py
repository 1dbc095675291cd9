"""Interfaces: public functions, drop-in matchers, NetworkX backend, command line."""
