"""Chapter-specific exercises for the in_practice chapter."""

__all__ = []
