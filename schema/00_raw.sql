-- Raw layer: what the parsers returned and what sources.yml says, loaded as is.
-- Every column is text or a plain number exactly as read; no conversion here.

CREATE TABLE raw_reports (
    source          VARCHAR PRIMARY KEY,
    family          VARCHAR NOT NULL,
    filed_order     INTEGER NOT NULL,
    title           VARCHAR NOT NULL,
    edition         VARCHAR,
    published       VARCHAR,
    published_note  VARCHAR,
    document_id     VARCHAR,
    document_id_note VARCHAR,
    origin          VARCHAR,
    retrieved       VARCHAR,
    sha256          VARCHAR NOT NULL,
    line_count      INTEGER,              -- NULL for a retired source (not read)
    retired_by      VARCHAR,              -- the source that replaced it (perfwh add --revision-of)
    retired_on      VARCHAR
);

CREATE TABLE raw_products (
    source          VARCHAR NOT NULL,
    product_key     VARCHAR NOT NULL,
    name            VARCHAR NOT NULL,
    short           VARCHAR NOT NULL,
    version         VARCHAR NOT NULL,
    fix_pack        VARCHAR,
    PRIMARY KEY (source, product_key)
);

CREATE TABLE raw_platforms (
    source          VARCHAR NOT NULL,
    platform_key    VARCHAR NOT NULL,
    label           VARCHAR NOT NULL,
    os              VARCHAR,
    hardware        VARCHAR,
    cpu_model       VARCHAR,
    cores           INTEGER,
    deployment      VARCHAR NOT NULL,
    memory          VARCHAR,
    note            VARCHAR,
    PRIMARY KEY (source, platform_key)
);

CREATE TABLE raw_tables (
    source          VARCHAR NOT NULL,
    table_key       VARCHAR NOT NULL,
    title           VARCHAR NOT NULL,
    kind            VARCHAR NOT NULL,
    heading_line    INTEGER NOT NULL,
    page            INTEGER,
    note            VARCHAR,
    PRIMARY KEY (source, table_key)
);

CREATE TABLE raw_scenarios (
    source          VARCHAR NOT NULL,
    name            VARCHAR NOT NULL,
    transport       VARCHAR,
    message_domain  VARCHAR,
    flow_style      VARCHAR,
    description     VARCHAR,
    PRIMARY KEY (source, name)
);

CREATE TABLE raw_tshirts (
    source          VARCHAR NOT NULL,
    name            VARCHAR NOT NULL,
    cpu_cores       VARCHAR NOT NULL,
    memory_mib      VARCHAR NOT NULL,
    line            INTEGER NOT NULL,
    PRIMARY KEY (source, name)
);

CREATE TABLE raw_observations (
    source              VARCHAR NOT NULL,
    seq                 INTEGER NOT NULL,
    table_key           VARCHAR NOT NULL,
    row_line            INTEGER NOT NULL,
    page                INTEGER,
    product_key         VARCHAR NOT NULL,
    platform_key        VARCHAR NOT NULL,
    scenario            VARCHAR NOT NULL,
    metric              VARCHAR NOT NULL,
    printed_value       VARCHAR NOT NULL,
    number              VARCHAR NOT NULL,
    unit                VARCHAR NOT NULL,
    size_printed        VARCHAR,
    size_number         VARCHAR,
    size_unit           VARCHAR,
    persistent          BOOLEAN,
    concurrency_kind    VARCHAR,
    concurrency_printed VARCHAR,
    concurrency_number  VARCHAR,
    replicas            INTEGER,
    tshirt              VARCHAR,
    component           VARCHAR,
    observed_at         VARCHAR,
    topology            VARCHAR,
    queue_managers      INTEGER,
    simulated_latency_ms VARCHAR,
    PRIMARY KEY (source, seq)
);

-- Statements of the prose: numbers (claim_kind value) and statements without a number
-- (counts, orderings, superlatives, trends, windows, dates; ingest/prose.py lists them).
CREATE TABLE raw_claims (
    source              VARCHAR NOT NULL,
    seq                 INTEGER NOT NULL,
    line                INTEGER NOT NULL,
    page                INTEGER,
    claim_text          VARCHAR NOT NULL,
    -- value (a number) unless the parser says otherwise; the default lets `perfwh check` copy
    -- the raw layer of a warehouse built before claims had kinds, whose claims are all numbers
    claim_kind          VARCHAR NOT NULL DEFAULT 'value',
    product_key         VARCHAR,
    platform_key        VARCHAR,
    scenario            VARCHAR,
    metric              VARCHAR,
    comparison          VARCHAR NOT NULL,
    compared            VARCHAR,
    quantifier          VARCHAR NOT NULL DEFAULT 'all',
    scope               VARCHAR,
    printed_value       VARCHAR NOT NULL,
    number              VARCHAR,
    unit                VARCHAR,
    size_printed        VARCHAR,
    size_number         VARCHAR,
    size_unit           VARCHAR,
    persistent          BOOLEAN,
    concurrency_kind    VARCHAR,
    concurrency_number  VARCHAR,
    relative_scenario   VARCHAR,
    relative_concurrency VARCHAR,
    relative_persistent BOOLEAN,
    relative_concurrency_kind VARCHAR,
    stated_date         VARCHAR,
    topology            VARCHAR,
    queue_managers      INTEGER,
    simulated_latency_ms VARCHAR,
    relative_platform_key VARCHAR,
    relative_topology   VARCHAR,
    relative_simulated_latency_ms VARCHAR,
    PRIMARY KEY (source, seq)
);

-- Cells of a CSV submission the submission reader could not read (not a number, an unknown
-- word, out of range, a blank key): kept with their line, so that nothing submitted is lost
-- silently and the rules can report them.
CREATE TABLE raw_rejects (
    source          VARCHAR NOT NULL,
    line            INTEGER NOT NULL,
    column_name     VARCHAR,
    printed_value   VARCHAR,
    problem         VARCHAR NOT NULL,
    expected        VARCHAR NOT NULL,
    kind            VARCHAR NOT NULL   -- unreadable | missing
);

-- Findings accepted when a submission was filed (perfwh add --waive), as sources.yml records
-- them: the warehouse carries them, so that every later run of the rules marks them waived.
CREATE TABLE raw_waivers (
    source          VARCHAR NOT NULL,
    finding_key     VARCHAR NOT NULL,
    reason          VARCHAR NOT NULL,
    PRIMARY KEY (source, finding_key)
);

-- The sources.yml this raw layer holds (the sha256 of its text, as a build read it or an add
-- wrote it): `make` compares it with data/raw/sources.yml to know whether the warehouse
-- already holds the raw layer as it stands (perfwh.stages.stamps).
CREATE TABLE raw_manifest (
    sha256          VARCHAR NOT NULL
);

CREATE TABLE raw_header_variants (
    source          VARCHAR NOT NULL,
    line            INTEGER NOT NULL,
    printed         VARCHAR NOT NULL,
    canonical       VARCHAR NOT NULL
);

CREATE TABLE ref_units (
    quantity        VARCHAR NOT NULL,
    token           VARCHAR NOT NULL,
    unit            VARCHAR NOT NULL,
    factor          DECIMAL(38, 12) NOT NULL,
    PRIMARY KEY (token, quantity)
);

CREATE TABLE ref_concurrency_kinds (
    concurrency_kind VARCHAR PRIMARY KEY,
    label           VARCHAR NOT NULL,
    meaning         VARCHAR NOT NULL,
    value_kind      VARCHAR NOT NULL,
    cpu_limit       BOOLEAN NOT NULL,
    peak_load       BOOLEAN NOT NULL
);

CREATE TABLE ref_topologies (
    topology        VARCHAR PRIMARY KEY,
    label           VARCHAR NOT NULL,
    meaning         VARCHAR NOT NULL,
    replicated      BOOLEAN NOT NULL
);

-- The schema files the warehouse's tables, views and macros were made from (their sha256):
-- a check or an add into a warehouse another version of them made would compute what no
-- build of the same raw layer computes (perfwh.warehouse.load.reference_drift).
CREATE TABLE ref_schema_files (
    file            VARCHAR PRIMARY KEY,
    sha256          VARCHAR NOT NULL
);

CREATE TABLE ref_metrics (
    metric          VARCHAR PRIMARY KEY,
    quantity        VARCHAR NOT NULL,
    unit            VARCHAR NOT NULL,
    description     VARCHAR NOT NULL
);
