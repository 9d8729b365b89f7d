"""Chapter-specific plotting for the in_practice chapter."""

__all__ = []
