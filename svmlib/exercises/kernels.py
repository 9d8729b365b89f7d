"""Chapter-specific exercises for the kernels chapter."""

__all__ = []
