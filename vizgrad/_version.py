"""The package's version, in the lowest layer so that every module may read it."""

__all__ = ["__version__"]

__version__ = "0.1.0"
