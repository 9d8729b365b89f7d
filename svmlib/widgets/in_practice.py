"""Chapter-specific widgets for the in_practice chapter."""

__all__ = []
