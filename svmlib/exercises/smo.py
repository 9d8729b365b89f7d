"""Chapter-specific exercises for the smo chapter."""

__all__ = []
