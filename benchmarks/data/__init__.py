"""The deal sets of `whist-solve bench` (PBN files), installed with the package."""
