"""WebSphere Business Integration Message Broker V5 for AIX (2004); its tables are specified
in tests/test_tables_exact.py."""

SOURCES = {
    "wbimb5-aix-2004.txt": {
        # 206 chapter-10 rows + Table 1 3x2 + Table 2 4x4 (a row per scenario and persistence)
        "measurements": 228,
        "claims": {"value": 47, "count": 3, "order": 23, "trend": 13, "best": 1},
    },
}
