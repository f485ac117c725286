"""Analyses of spatial programs, above the dialects: who moves which tile."""
