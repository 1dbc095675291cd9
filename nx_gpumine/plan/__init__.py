"""Plans: query + graph statistics -> small immutable arrays shared by every engine."""
