"""App Connect Enterprise 11 against IIB 10 in Docker (2019); its tables are specified in
tests/test_tables_exact.py."""

SOURCES = {
    "ace11-vs-iib10-docker-2019.txt": {
        "measurements": 216,  # 108 rows x 2 products
        "claims": {"count": 7},
    },
}
