"""IBM Integration Bus V10 on xLinux; its tables are specified in tests/test_tables_exact.py."""

SOURCES = {
    "iib10-xlinux.txt": {
        "measurements": 87,  # rows, and both persistence halves where a table has two
        "claims": {"value": 1, "order": 2, "trend": 2},
    },
}
