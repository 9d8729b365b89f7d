"""Chapter-specific plotting for the multiclass chapter."""

__all__ = []
