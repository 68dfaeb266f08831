#!/usr/bin/env python3
"""Benchmarks `skanc serve` with wrk against the ceiling of HTTP here and a receiver a user would write.

usage: Benchmarks/receiver.py [--postbacks N] [--seconds S] [--connections C] [--rss-seconds S]
Generates N realistic postbacks (Benchmarks/generate_postbacks.py: SKAdNetwork 3, 4 and AdAttributionKit;
default 20,000), signs them with a benchmark key (Benchmarks/sign_postbacks.py), and has wrk post them round
robin over C keep-alive connections (default 64) for S seconds (default 10) to:
  (a) skanc serve (release build): verification, group commit, a 200 only after fsync;
  (b) nginx answering 200 from memory (the ceiling of HTTP on this machine);
  (c) a Python receiver as a user would write it: aiohttp, appending each batch and fsync'ing it before
      answering (the same durability).
Prints requests per second, p50 and p99 latency and the ratios side by side, and how long skanc's counter
(verification, off the acknowledgement path) took after the load to count everything stored; then, with
--rss-seconds > 0, posts to skanc serve for that long and prints its resident memory at the start and end.
Needs wrk and nginx (Debian packages) and aiohttp (PyPI).
"""
import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PATH = "/.well-known/skadnetwork/report-attribution/"

LUA = r"""
local bodies = {}
for line in io.lines(os.getenv("BODIES")) do bodies[#bodies + 1] = line end
local index = 0
request = function()
  index = index % #bodies + 1
  return wrk.format("POST", "PATH", {["Content-Type"] = "application/json"}, bodies[index])
end
""".replace("PATH", PATH)

PYTHON_RECEIVER = r"""
import asyncio, os, sys
from aiohttp import web
out = open(sys.argv[2], "ab")
pending = []
lock = asyncio.Lock()
async def flush():
    # Group commit: whoever takes the lock writes and fsyncs every body waiting, then all are answered.
    async with lock:
        if not pending:
            return
        batch = pending[:]
        del pending[:]
        out.write(b"".join(body + b"\n" for body, _ in batch))
        out.flush()
        await asyncio.get_running_loop().run_in_executor(None, os.fsync, out.fileno())
        for _, done in batch:
            done.set_result(True)
async def receive(request):
    body = (await request.read()).replace(b"\n", b" ")
    done = asyncio.get_running_loop().create_future()
    pending.append((body, done))
    await flush()
    await done
    return web.Response(text="stored\n")
app = web.Application()
app.router.add_post("PATH", receive)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None)
""".replace("PATH", PATH)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(port):
    for _ in range(500):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.02)
    sys.exit("nothing listens on %d" % port)


def wrk(port, bodies, seconds, connections):
    output = subprocess.run(
        ["wrk", "-t", "2", "-c", str(connections), "-d", "%ds" % seconds, "--latency", "-s", LUA_PATH,
         "http://127.0.0.1:%d" % port],
        env=dict(os.environ, BODIES=bodies), capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    latency = dict(re.findall(r"\s+(50|99)%\s+([\d.]+\w+)", output))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return rate, latency.get("50", "?"), latency.get("99", "?"), int(errors.group(1)) if errors else 0


def catch_up(admin_port):
    """Seconds until the counter has decoded and verified every postback stored, and how many are stored.

    Verification is off the acknowledgement path: under wrk's load the counter falls behind and catches up
    after. /metrics answers once it has caught up (or after 5 s, then it is asked again)."""
    started = time.time()
    while True:
        with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % admin_port, timeout=60) as answer:
            text = answer.read().decode()
        behind = int(re.search(r"^skanc_postbacks_uncounted (\d+)$", text, re.M).group(1))
        stored = sum(int(n) for n in re.findall(r"^skanc_postbacks_stored_total\{[^}]*\} (\d+)$", text, re.M))
        if behind == 0:
            return time.time() - started, stored


def rss_kib(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--postbacks", type=int, default=20000)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--rss-seconds", type=int, default=0)
    options = parser.parse_args()
    for tool in ["wrk", "nginx"]:
        if not shutil.which(tool) and not os.path.exists("/usr/sbin/" + tool):
            sys.exit("%s is not installed (apt-get install %s)" % (tool, tool))
    subprocess.run(["swift", "build", "-c", "release", "--product", "skanc"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    skanc = os.path.join(ROOT, ".build/release/skanc")
    work = tempfile.mkdtemp(prefix="skanc-receiver-bench-")
    global LUA_PATH
    LUA_PATH = os.path.join(work, "post.lua")
    open(LUA_PATH, "w").write(LUA)
    raw = os.path.join(work, "raw.jsonl")
    bodies = os.path.join(work, "signed.jsonl")
    with open(raw, "w") as out:
        subprocess.run([sys.executable, os.path.join(HERE, "generate_postbacks.py"), str(options.postbacks), "5"],
                       stdout=out, check=True)
    signed = subprocess.run([sys.executable, os.path.join(HERE, "sign_postbacks.py"), raw, bodies],
                            capture_output=True, text=True, check=True)
    keys = re.findall(r"[A-Za-z0-9+/=]{80,}", signed.stderr)
    key_arguments = ["--public-key", "skadnetwork=%s,jws:bench/0=%s" % (keys[0], keys[0])] if keys else []
    results = {}

    port = free_port()
    admin_port = free_port()
    server = subprocess.Popen([skanc, "serve", "--data", os.path.join(work, "store"), "--listen",
                               "127.0.0.1:%d" % port, "--admin-listen", "127.0.0.1:%d" % admin_port,
                               "--instance", "bench"] + key_arguments,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    server.stdout.readline()
    server.stdout.readline()
    results["skanc serve"] = wrk(port, bodies, options.seconds, options.connections)
    results["counting"] = catch_up(admin_port)
    if options.rss_seconds > 0:
        start = rss_kib(server.pid)
        wrk(port, bodies, options.rss_seconds, options.connections)
        end = rss_kib(server.pid)
        results["rss"] = (start, end)
    server.send_signal(signal.SIGTERM)
    server.wait()

    port = free_port()
    conf = os.path.join(work, "nginx.conf")
    open(conf, "w").write(
        "daemon off; master_process off; pid %s/nginx.pid; error_log %s/error.log;\n"
        "events { worker_connections 1024; }\n"
        "http { access_log off; client_body_temp_path %s/body;\n"
        "  server { listen 127.0.0.1:%d; location / { return 200 \"stored\\n\"; } } }\n" % (work, work, work, port))
    nginx = subprocess.Popen([shutil.which("nginx") or "/usr/sbin/nginx", "-e", os.path.join(work, "error.log"),
                              "-c", conf], stderr=subprocess.DEVNULL)
    wait_for(port)
    results["nginx (200 from memory)"] = wrk(port, bodies, options.seconds, options.connections)
    nginx.kill()
    nginx.wait()

    port = free_port()
    python = subprocess.Popen([sys.executable, "-c", PYTHON_RECEIVER, str(port), os.path.join(work, "python.jsonl")],
                              stderr=subprocess.DEVNULL)
    wait_for(port)
    results["Python aiohttp (batched fsync)"] = wrk(port, bodies, options.seconds, options.connections)
    python.kill()
    python.wait()

    print("%d signed postbacks (SKAdNetwork 3, 4, AdAttributionKit), wrk -c %d for %d s, %d cores"
          % (options.postbacks, options.connections, options.seconds, os.cpu_count()))
    print("%-32s %12s %10s %10s %8s" % ("receiver", "requests/s", "p50", "p99", "non-2xx"))
    for name in ["skanc serve", "nginx (200 from memory)", "Python aiohttp (batched fsync)"]:
        rate, p50, p99, errors = results[name]
        print("%-32s %12.0f %10s %10s %8d" % (name, rate, p50, p99, errors))
    skanc_rate = results["skanc serve"][0]
    print("skanc / nginx: %.2fx (goal >= 0.5x); skanc / Python: %.1fx (goal >= 5x)"
          % (skanc_rate / results["nginx (200 from memory)"][0], skanc_rate / results["Python aiohttp (batched fsync)"][0]))
    seconds, stored = results["counting"]
    print("skanc serve counted (decoded and verified) all %d postbacks stored %.1f s after the load ended"
          % (stored, seconds))
    if "rss" in results:
        start, end = results["rss"]
        print("skanc serve RSS over %d s of load: %d KiB -> %d KiB (%+.1f%%)"
              % (options.rss_seconds, start, end, 100.0 * (end - start) / max(start, 1)))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
