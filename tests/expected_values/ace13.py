"""App Connect Enterprise 13 on OpenShift (2025); its tables are specified in
tests/test_tables_exact.py."""

SOURCES = {
    "ace13-openshift-2025.txt": {
        "measurements": 119,  # message-rate rows; startup times measure neither rate nor cost
        "claims": {"count": 5},
    },
}
