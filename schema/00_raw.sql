-- Raw layer: what the parsers returned and what sources.yml says, loaded as is.
-- Every column is text or a plain number exactly as read; no conversion here.

CREATE TABLE raw_reports (
    source          VARCHAR PRIMARY KEY,
    family          VARCHAR NOT NULL,
    title           VARCHAR NOT NULL,
    edition         VARCHAR,
    published       VARCHAR,
    published_note  VARCHAR,
    document_id     VARCHAR,
    document_id_note VARCHAR,
    origin          VARCHAR,
    retrieved       VARCHAR,
    sha256          VARCHAR NOT NULL,
    line_count      INTEGER NOT NULL
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
    PRIMARY KEY (source, seq)
);

CREATE TABLE raw_claims (
    source              VARCHAR NOT NULL,
    seq                 INTEGER NOT NULL,
    line                INTEGER NOT NULL,
    page                INTEGER,
    claim_text          VARCHAR NOT NULL,
    product_key         VARCHAR,
    platform_key        VARCHAR,
    scenario            VARCHAR,
    metric              VARCHAR NOT NULL,
    comparison          VARCHAR NOT NULL,
    printed_value       VARCHAR NOT NULL,
    number              VARCHAR NOT NULL,
    unit                VARCHAR NOT NULL,
    size_printed        VARCHAR,
    size_number         VARCHAR,
    size_unit           VARCHAR,
    persistent          BOOLEAN,
    concurrency_kind    VARCHAR,
    concurrency_number  VARCHAR,
    relative_scenario   VARCHAR,
    relative_concurrency VARCHAR,
    PRIMARY KEY (source, seq)
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
    PRIMARY KEY (quantity, token)
);

CREATE TABLE ref_metrics (
    metric          VARCHAR PRIMARY KEY,
    quantity        VARCHAR NOT NULL,
    unit            VARCHAR NOT NULL,
    description     VARCHAR NOT NULL
);
