#!/usr/bin/env python3
"""The PySpark job of docs/Warehouse.md: decodes a directory of JSON-lines postback files with `skanc sql`.

usage: spark_job.py DIRECTORY DECODE.spark.sql [--master local[2]]
Reads every file of DIRECTORY one row per line (spark.read.text), numbers the rows, saves them as the table
postback_lines, creates the view decoded_postbacks from DECODE.spark.sql (`skanc sql SCHEMA --dialect spark`)
and prints the count of each status, one `status count` line each.
"""
import argparse
import os
import tempfile

from pyspark.sql import SparkSession, functions as F


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("sql")
    parser.add_argument("--master", default="local[2]")
    arguments = parser.parse_args()
    warehouse = tempfile.mkdtemp(prefix="skanc-spark-job-")
    spark = (SparkSession.builder.master(arguments.master).config("spark.ui.enabled", "false")
             .config("spark.sql.warehouse.dir", os.path.join(warehouse, "warehouse")).getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    lines = (spark.read.text(arguments.directory)             # one row per line, in a column named value
             .withColumn("line", F.monotonically_increasing_id() + 1)
             .withColumnRenamed("value", "text"))
    lines.write.mode("overwrite").saveAsTable("postback_lines")
    spark.sql(open(arguments.sql).read().strip().rstrip(";"))
    for row in spark.sql("SELECT status, count(*) AS n FROM decoded_postbacks GROUP BY status ORDER BY status").collect():
        print(row.status, row.n)
    spark.stop()


main()
