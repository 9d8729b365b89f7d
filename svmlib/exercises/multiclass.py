"""Chapter-specific exercises for the multiclass chapter."""

__all__ = []
