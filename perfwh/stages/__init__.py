"""The pipeline's stages, each committed atomically: build, check, add, models."""
