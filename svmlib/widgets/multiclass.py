"""Chapter-specific widgets for the multiclass chapter."""

__all__ = []
