"""Chapter-specific plotting for the smo chapter."""

__all__ = []
