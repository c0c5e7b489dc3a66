"""What every stage shares: paths, atomic file replacement, JSON-safe values, progress."""
