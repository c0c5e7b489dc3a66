"""Publishing: the analysis notebooks and the website."""
