#!/usr/bin/env python3
"""Benchmarks `skanc serve` where acknowledgements must not wait: under a flood of junk, while /report is polled
over a large store, and how fast forwarding catches up after a destination's outage.

usage: Benchmarks/receiver_load.py [--postbacks N] [--store N] [--seconds S]
Generates N signed realistic postbacks (Benchmarks/generate_postbacks.py and sign_postbacks.py, as receiver.py
does; default 20,000) and prints, side by side in one run, wrk's p50 and p99 acknowledgement latency for 4
connections posting them:
  (a) alone (the baseline);
  (b) while 4 more connections flood junk: JSON objects of 1 KiB that are no postback (answered 400), with no
      rate limit (--rate-limit 0: the worst case);
  (c) over a store of --store postbacks already stored (default 1,000,000), alone, then while /report is asked
      for every second (its latency printed too).
Goal: p99 under 20 ms in (b) and (c). Then (d): the postbacks stored while a --forward destination was down,
and, the receiver restarted with the destination up (nginx answering 200 from memory), the time to deliver them
all from the outbox's cursor, in postbacks per second.
Needs wrk and nginx (Debian packages).
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import receiver  # noqa: E402  (the same wrk, Lua script, ports and key handling)

JUNK_LUA = r"""
local body = '{"version":"4.0","padding":"' .. string.rep("x", 1000) .. '"}'
request = function()
  return wrk.format("POST", "PATH", {["Content-Type"] = "application/json"}, body)
end
""".replace("PATH", receiver.PATH)


def start(skanc, data, extra):
    port, admin = receiver.free_port(), receiver.free_port()
    server = subprocess.Popen([skanc, "serve", "--data", data, "--listen", "127.0.0.1:%d" % port, "--admin-listen",
                               "127.0.0.1:%d" % admin, "--instance", "bench"] + extra,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    server.stdout.readline()
    server.stdout.readline()
    return server, port, admin


def stop(server):
    server.send_signal(signal.SIGTERM)
    server.wait()


def get(url):
    started = time.monotonic()
    with urllib.request.urlopen(url, timeout=600) as answer:
        answer.read()
        return answer.status, time.monotonic() - started


def get_status(url):
    try:
        return get(url)[0]
    except urllib.error.HTTPError as error:
        return error.code


def junk(port, seconds, stop_event, results):
    lua = os.path.join(tempfile.gettempdir(), "skanc-junk.lua")
    open(lua, "w").write(JUNK_LUA)
    output = subprocess.run(["wrk", "-t", "1", "-c", "4", "-d", "%ds" % seconds, "-s", lua,
                             "http://127.0.0.1:%d" % port], capture_output=True, text=True, check=True).stdout
    results["junk"] = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))


def write_store(data, lines_path, count):
    """A store of `count` postbacks (the generated lines, repeated with fresh transaction ids) in 64 MiB
    segments, each with its receipt times."""
    day = os.path.join(data, "postbacks", "2026-12-01")
    os.makedirs(day, exist_ok=True)
    lines = open(lines_path, "rb").read().splitlines()
    written = 0
    segment = 0
    while written < count:
        segment += 1
        name = os.path.join(day, "bench-20261201T000000Z-%d" % segment)
        with open(name + ".jsonl", "wb") as out, open(name + ".times", "wb") as times:
            size = 0
            while written < count and size < 64 << 20:
                line = lines[written % len(lines)]
                # Another transaction id each round, so that the store is not all duplicates.
                line = re.sub(rb'("transaction-id":")(.{8})', lambda m: m.group(1) + b"%08x" % written,
                              line, count=1)
                out.write(line + b"\n")
                times.write(b"1764547200\n")
                size += len(line) + 1
                written += 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--postbacks", type=int, default=20000)
    parser.add_argument("--store", type=int, default=1000000)
    parser.add_argument("--seconds", type=int, default=10)
    options = parser.parse_args()
    subprocess.run(["swift", "build", "-c", "release", "--product", "skanc"], cwd=receiver.ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    skanc = os.path.join(receiver.ROOT, ".build/release/skanc")
    work = tempfile.mkdtemp(prefix="skanc-receiver-load-")
    receiver.LUA_PATH = os.path.join(work, "post.lua")
    open(receiver.LUA_PATH, "w").write(receiver.LUA)
    raw = os.path.join(work, "raw.jsonl")
    bodies = os.path.join(work, "signed.jsonl")
    with open(raw, "w") as out:
        subprocess.run([sys.executable, os.path.join(HERE, "generate_postbacks.py"), str(options.postbacks), "5"],
                       stdout=out, check=True)
    signed = subprocess.run([sys.executable, os.path.join(HERE, "sign_postbacks.py"), raw, bodies],
                            capture_output=True, text=True, check=True)
    keys = re.findall(r"[A-Za-z0-9+/=]{80,}", signed.stderr)
    key_arguments = ["--public-key", "skadnetwork=%s,jws:bench/0=%s" % (keys[0], keys[0])] if keys else []
    schema = os.path.join(receiver.ROOT, "Schemas", "Shop.skan")
    rows = []

    server, port, _ = start(skanc, os.path.join(work, "a"), key_arguments + ["--rate-limit", "0"])
    rows.append(("(a) alone",) + receiver.wrk(port, bodies, options.seconds, 4))
    results = {}
    flood = threading.Thread(target=junk, args=(port, options.seconds, None, results))
    flood.start()
    rows.append(("(b) beside 4 connections of junk",) + receiver.wrk(port, bodies, options.seconds, 4))
    flood.join()
    stop(server)

    data = os.path.join(work, "c")
    write_store(data, bodies, options.store)
    started = time.monotonic()
    server, port, admin = start(skanc, data, key_arguments + ["--schema", schema])
    while get_status("http://127.0.0.1:%d/report?format=json" % admin) != 200:
        time.sleep(0.5)
    counted = time.monotonic() - started
    rows.append(("(c) over %d stored" % options.store,) + receiver.wrk(port, bodies, options.seconds, 4))
    latencies = []
    done = threading.Event()

    def poll():
        while not done.is_set():
            latencies.append(get("http://127.0.0.1:%d/report?format=json" % admin)[1])
            done.wait(1)

    poller = threading.Thread(target=poll)
    poller.start()
    rows.append(("(c) and /report every second",) + receiver.wrk(port, bodies, options.seconds, 4))
    done.set()
    poller.join()
    stop(server)

    # (d) forwarding: postbacks stored while the destination is down; the receiver is then restarted with the
    # destination up, and delivers the backlog from its cursor (no backoff to wait out).
    nginx_port = receiver.free_port()
    data = os.path.join(work, "d")
    forward = key_arguments + ["--forward", "nginx=http://127.0.0.1:%d" % nginx_port]
    server, port, admin = start(skanc, data, forward)
    stored = receiver.wrk(port, bodies, 5, 16)
    behind = receiver.catch_up(admin)[1]
    stop(server)
    conf = os.path.join(work, "nginx.conf")
    open(conf, "w").write(
        "daemon off; master_process off; pid %s/nginx.pid; error_log %s/error.log;\n"
        "events { worker_connections 1024; }\n"
        "http { access_log off; client_body_temp_path %s/body;\n"
        "  server { listen 127.0.0.1:%d; location / { return 200 \"ok\\n\"; } } }\n" % (work, work, work, nginx_port))
    nginx = subprocess.Popen([shutil.which("nginx") or "/usr/sbin/nginx", "-e", os.path.join(work, "error.log"),
                              "-c", conf], stderr=subprocess.DEVNULL)
    receiver.wait_for(nginx_port)
    started = time.monotonic()
    server, port, admin = start(skanc, data, forward)
    while True:
        with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % admin, timeout=60) as answer:
            text = answer.read().decode()
        if re.search(r'^skanc_forward_lag_postbacks\{destination="nginx"\} 0$', text, re.M):
            break
        time.sleep(0.05)
    caught_up = time.monotonic() - started
    sent = int(re.search(r'^skanc_forward_sent_total\{destination="nginx"\} (\d+)$', text, re.M).group(1))
    nginx.kill()
    stop(server)
    shutil.rmtree(work, ignore_errors=True)

    print("%d signed postbacks (SKAdNetwork 3, 4, AdAttributionKit), wrk -c 4 for %d s, %d cores"
          % (options.postbacks, options.seconds, os.cpu_count()))
    print("%-36s %12s %10s %10s %8s" % ("scenario", "requests/s", "p50", "p99", "non-2xx"))
    for name, rate, p50, p99, errors in rows:
        print("%-36s %12.0f %10s %10s %8d" % (name, rate, p50, p99, errors))
    print("junk answered 400 during (b): %.0f requests/s" % results.get("junk", 0))
    print("the counter counted the store of %d in %.1f s after start; /report (json) under the load took %s"
          % (options.store, counted, ", ".join("%.0f ms" % (1000 * x) for x in latencies)))
    print("(d) %d postbacks stored (%d requests/s, %d not 2xx) while the destination was down; after a restart with it "
          "up, delivered %d in %.1f s: %.0f postbacks/s" % (behind, stored[0], stored[3], sent, caught_up,
                                                           sent / caught_up if caught_up else 0))


if __name__ == "__main__":
    main()
