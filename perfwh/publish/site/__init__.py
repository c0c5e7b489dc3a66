"""The website defined by _quarto.yml: its configuration, perfwh's fallback renderer, safe
HTML helpers, and the post-render step shared with Quarto."""
