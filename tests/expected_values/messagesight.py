"""IBM MessageSight 1.0 (2013); its tables are specified in tests/test_tables_exact.py."""

SOURCES = {
    "messagesight1-2013.txt": {
        "measurements": 6,  # the score card's msgs/sec rows
        "claims": {"value": 7, "best": 2, "window": 1, "date": 1},
    },
}
