"""Chapter-specific widgets for the soft_margin chapter."""

__all__ = []
