"""Chapter-specific widgets for the smo chapter."""

__all__ = []
