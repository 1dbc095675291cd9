"""Results: counts, match arrays, frames and NetworkX-style iterators."""
