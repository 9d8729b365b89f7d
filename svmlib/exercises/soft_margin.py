"""Chapter-specific exercises for the soft_margin chapter."""

__all__ = []
