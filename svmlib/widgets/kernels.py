"""Chapter-specific widgets for the kernels chapter."""

__all__ = []
