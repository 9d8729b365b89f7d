"""Chapter-specific plotting for the kernels chapter."""

__all__ = []
