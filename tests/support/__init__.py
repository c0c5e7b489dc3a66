"""Helpers shared by the tests (never imported by the product)."""
