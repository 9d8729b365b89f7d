"""Chapter-specific plotting for the soft_margin chapter."""

__all__ = []
