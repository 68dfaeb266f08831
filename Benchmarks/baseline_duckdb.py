#!/usr/bin/env python3
"""The same decode as SQL in DuckDB (embedded): read the JSON lines, join a 64-row decoding table, CSV out.
usage: baseline_duckdb.py postbacks.jsonl decoded.csv   (needs: pip install duckdb)"""
import sys

import duckdb

source, target = sys.argv[1], sys.argv[2]
connection = duckdb.connect()
connection.execute("""
    CREATE TABLE shop AS SELECT v AS fine_value, (v & 1) = 1 AS registered,
      ['none','low','medium','high'][((v >> 1) & 3) + 1] AS payment_tier,
      ['none','browsed','addedToCart','ordered'][((v >> 3) & 3) + 1] AS day_one_action
    FROM range(64) t(v)""")
connection.execute(f"""
    COPY (SELECT p."transaction-id" AS transaction_id, p.version, p."postback-sequence-index" AS postback_sequence_index,
                 p."conversion-value" AS fine_value, p."coarse-conversion-value" AS coarse_value,
                 s.registered, s.payment_tier, s.day_one_action
          FROM read_json('{source}', format = 'newline_delimited', ignore_errors = true,
               columns = {{"transaction-id": 'VARCHAR', "version": 'VARCHAR', "postback-sequence-index": 'INTEGER',
                          "conversion-value": 'INTEGER', "coarse-conversion-value": 'VARCHAR'}}) p
          LEFT JOIN shop s ON s.fine_value = p."conversion-value") TO '{target}' (FORMAT csv, HEADER)""")
