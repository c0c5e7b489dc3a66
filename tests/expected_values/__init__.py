"""Expected values, one module per report family (named as the family): what each of its
reports holds, counted or copied from the report itself - never produced by the parser.

Each module defines ``SOURCES``: raw file -> its expectations. Tests over all the reports
take their counts from here through `support.expected` (which finds the module of every
family the registry lists), so a new family brings its own module and changes no test.
Keys a module may give per source:

    measurements   rows of the measurements view (a table row per product and column group)
    claims         statements of the prose by claim_kind ({"value": 7, "count": 2, ...})
    tables         results tables, each {"title", "page", "groups", "columns", "rows"} as
                   printed (tests/test_expected_values.py checks every number of them)
    numbers        or, for a report of any layout, every number: {(line, metric): printed}
Families whose tables are specified in tests/test_tables_exact.py leave both out.
"""
