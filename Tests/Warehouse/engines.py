"""The four engines, each behind `decode(lines, sql) -> (columns, rows)`: load postback_lines(line, text), run the
SQL from `skanc sql` (which creates the view decoded_postbacks), and read the view ordered by line.

PostgreSQL runs as a server this module starts in a temporary data directory, listening only on a Unix socket
there (as the postgres user when run as root, which initdb refuses), and stops and deletes when done. Spark runs
in local mode with a temporary warehouse directory.
"""
import contextlib
import csv
import glob
import io
import json
import os
import shutil
import subprocess
import tempfile

QUERY = "SELECT * FROM decoded_postbacks ORDER BY line"


def parse_runs(parser, argv):
    """The runs of one invocation: `ARGS [--then ARGS]...`, each parsed by `parser`, sharing one engine (each
    later run takes `--engine` and `--skanc` from the first), so an engine that is slow to start (Spark's JVM, a
    PostgreSQL server) starts once for all of them."""
    segments = split_runs(argv)
    first = parser.parse_args(segments[0])
    shared = ["--engine", first.engine, "--skanc", first.skanc]
    runs = [first] + [parser.parse_args(shared + segment) for segment in segments[1:]]
    if any(run.engine != first.engine for run in runs):
        parser.error("every run of one invocation uses the first run's engine")
    return runs


def split_runs(argv):
    """The arguments of each run: `argv` split at each `--then`."""
    segments = [[]]
    for argument in argv:
        if argument == "--then":
            segments.append([])
        else:
            segments[-1].append(argument)
    return segments


@contextlib.contextmanager
def open_engine(name):
    engine = {"duckdb": DuckDB, "sqlite": SQLite, "postgres": PostgreSQL, "spark": Spark}[name]()
    try:
        yield engine
    finally:
        engine.close()



def receipt_texts(lines):
    """The rows with their receipt times as text, as a `.times` line holds them (a loader may give numbers)."""
    if not lines or len(lines[0]) != 3:
        return lines
    return [(line, text, None if received is None else str(received)) for line, text, received in lines]

class Engine:
    """What every engine does: load the lines and the SQL, then read the view; run more SQL, and read any query
    (`query` returns the columns and the rows, each cell as the engine's Python value or, for PostgreSQL, its
    text)."""

    def decode(self, lines, sql):
        self.load(lines, sql)
        return self.read()

    def read(self):
        return self.query(QUERY)


class DuckDB(Engine):
    def __init__(self):
        import duckdb

        self.directory = tempfile.mkdtemp(prefix="skanc-duckdb-")
        self.connection = duckdb.connect()

    def load(self, lines, sql):
        # Loaded through DuckDB's own JSON reader: each line as a JSON string, so no byte is reinterpreted.
        path = os.path.join(self.directory, "lines.jsonl")
        received = bool(lines) and len(lines[0]) == 3
        lines = receipt_texts(lines)
        with open(path, "w", encoding="utf-8") as handle:
            for row in lines:
                handle.write(json.dumps(dict(zip(["line", "text", "received"], row))) + "\n")
        connection = self.connection
        connection.execute("DROP VIEW IF EXISTS decoded_postbacks")
        connection.execute("DROP TABLE IF EXISTS postback_lines")
        connection.execute(
            "CREATE TABLE postback_lines AS SELECT * FROM read_json(?, format='newline_delimited', "
            "columns={'line': 'BIGINT', 'text': 'VARCHAR'" + (", 'received': 'VARCHAR'" if received else "")
            + "}, maximum_object_size=67108864)",
            [path],
        )
        connection.execute(sql)

    def execute(self, sql):
        self.connection.execute(sql)

    def query(self, sql):
        result = self.connection.execute(sql)
        return [column[0] for column in result.description], result.fetchall()

    def close(self):
        self.connection.close()
        shutil.rmtree(self.directory, ignore_errors=True)


class SQLite(Engine):
    def __init__(self):
        import sqlite3

        self.connection = sqlite3.connect(":memory:")
        # SQLite hands back the bytes a JSON escape makes, even a lone surrogate's: shown as U+FFFD, as skanc does.
        self.connection.text_factory = lambda data: data.decode("utf-8", errors="replace")

    def load(self, lines, sql):
        connection = self.connection
        connection.executescript("DROP VIEW IF EXISTS decoded_postbacks; DROP TABLE IF EXISTS postback_lines;")
        received = bool(lines) and len(lines[0]) == 3
        lines = receipt_texts(lines)
        connection.execute("CREATE TABLE postback_lines(line INTEGER, text TEXT" + (", received TEXT)" if received else ")"))
        connection.executemany("INSERT INTO postback_lines VALUES (?, ?" + (", ?)" if received else ")"), lines)
        connection.executescript(sql)

    def execute(self, sql):
        self.connection.executescript(sql)

    def query(self, sql):
        cursor = self.connection.execute(sql)
        return [column[0] for column in cursor.description], cursor.fetchall()

    def close(self):
        self.connection.close()


def postgres_bin(program):
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{program}"))
    if not found:
        raise SystemExit(f"PostgreSQL's {program} is not installed (Debian: apt-get install postgresql)")
    return found[-1]


class PostgreSQL(Engine):
    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="skanc-postgres-")
        os.chmod(self.directory, 0o777)
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.data = os.path.join(self.directory, "data")
        self.run([postgres_bin("initdb"), "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--locale=C.UTF-8"])
        options = f"-c listen_addresses='' -c unix_socket_directories='{self.directory}' -c fsync=off"
        self.run([postgres_bin("pg_ctl"), "-D", self.data, "-o", options, "-w", "-t", "900", "-l",
                  os.path.join(self.directory, "log"), "start"])
        self.started = True

    def run(self, command, **options):
        return subprocess.run(self.as_user + command, check=True, capture_output=True, **options)

    def psql(self, *arguments, stdin=None):
        command = [postgres_bin("psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", self.directory, "-U", "postgres",
                   "-d", "postgres", *arguments]
        result = subprocess.run(command, capture_output=True, input=stdin)
        if result.returncode != 0:
            raise SystemExit("psql: " + result.stderr.decode(errors="replace")[-2000:])
        return result.stdout

    def load(self, lines, sql):
        # COPY's text format: backslash, tab, carriage return escaped; text cannot hold U+0000.
        def escaped(text):
            text = text.replace("\x00", "\ufffd").replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "\\r")
            return text
        received = bool(lines) and len(lines[0]) == 3
        lines = receipt_texts(lines)
        null = "\\N"  # COPY's NULL
        rows = "".join(
            f"{row[0]}\t{escaped(row[1])}" + (f"\t{null if row[2] is None else escaped(row[2])}" if received else "")
            + "\n"
            for row in lines)
        self.psql("-c", "DROP VIEW IF EXISTS decoded_postbacks; DROP TABLE IF EXISTS postback_lines; "
                        "CREATE TABLE postback_lines(line bigint, text text" + (", received text)" if received else ")"))
        self.psql("-c", "COPY postback_lines FROM STDIN", stdin=rows.encode("utf-8"))
        self.psql(stdin=sql.encode("utf-8"))
        self.psql("-c", "ANALYZE postback_lines")

    def execute(self, sql):
        self.psql(stdin=sql.encode("utf-8"))

    def query(self, sql):
        output = self.psql("-c", f"COPY ({sql}) TO STDOUT WITH (FORMAT csv, HEADER)").decode("utf-8")
        reader = csv.reader(io.StringIO(output, newline=""))
        columns = next(reader)
        return columns, [tuple(row) for row in reader]

    def close(self):
        if getattr(self, "started", False):
            self.run([postgres_bin("pg_ctl"), "-D", self.data, "-m", "fast", "-w", "-t", "900", "stop"])
        shutil.rmtree(self.directory, ignore_errors=True)


class Spark(Engine):
    def __init__(self):
        from pyspark.sql import SparkSession

        self.directory = tempfile.mkdtemp(prefix="skanc-spark-")
        self.session = (
            SparkSession.builder.master("local[2]")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.warehouse.dir", os.path.join(self.directory, "warehouse"))
            .config("spark.driver.memory", "4g")
            # Local mode on a small machine: a few partitions per shuffle, not 200 tasks for a few hundred rows.
            .config("spark.sql.shuffle.partitions", "4")
            .getOrCreate()
        )
        self.session.sparkContext.setLogLevel("ERROR")

    def load(self, lines, sql):
        session = self.session
        session.sql("DROP VIEW IF EXISTS decoded_postbacks")
        session.sql("DROP TABLE IF EXISTS postback_lines")
        received = bool(lines) and len(lines[0]) == 3
        lines = receipt_texts(lines)
        frame = session.createDataFrame(lines, "line BIGINT, text STRING" + (", received STRING" if received else ""))
        frame.write.saveAsTable("postback_lines")
        session.sql(sql.strip().rstrip(";"))

    def execute(self, sql):
        # One statement a call: the report's SQL ends each with ";" and a line break.
        for statement in sql.split(";\n"):
            statement = "\n".join(line for line in statement.split("\n") if not line.startswith("--")).strip()
            if statement:
                self.session.sql(statement)

    def query(self, sql):
        result = self.session.sql(sql)
        return result.columns, [tuple(row) for row in result.collect()]

    def close(self):
        from pyspark import SparkContext

        gateway = SparkContext._gateway
        self.session.stop()
        # The JVM outlives session.stop(): shut its gateway and wait for the process, so nothing keeps running.
        if gateway is not None:
            process = getattr(gateway, "proc", None)
            gateway.shutdown()
            SparkContext._gateway = None
            SparkContext._jvm = None
            if process is not None:
                if process.stdin:
                    process.stdin.close()
                try:
                    process.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)
