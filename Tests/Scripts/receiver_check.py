#!/usr/bin/env python3
"""Drives `skanc serve` as devices and attackers would, and checks what it promised.

usage: receiver_check.py SKANC SCENARIO WORKDIR [options]
  crash  --postbacks FILE --seed S --kills K   concurrent clients post every line of FILE (distinct postbacks)
         while the receiver is killed with SIGKILL at random moments and restarted; a client retries what got
         no 200. Checks: every line that got a 200 is in the store, each line is stored (all were retried until
         acknowledged), and every torn line is in rejects/.
  fault  --postbacks FILE                      the receiver runs under a file-size limit (ulimit -f, SIGXFSZ
         ignored): writes that fail must be answered 503, never 200; restarted without the limit, the 503'd
         postbacks are sent again and stored once.
  hostile                                      oversized and slow requests, smuggling, bad chunking, bodies that
         are not one JSON object, more connections than it serves, too few descriptors; a well-formed postback is stored after
         each, and the receiver never stops.
Prints what it did; exits 1 with the reason on the first broken promise.
"""
import glob
import http.client
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time

SKAN_PATH = "/.well-known/skadnetwork/report-attribution/"
AAK_PATH = "/.well-known/appattribution/report-attribution/"


def fail(message):
    print("FAILED: " + message)
    sys.exit(1)


class Receiver:
    """A `skanc serve` child; its ports read from its first line."""

    def __init__(self, skanc, data, extra=(), shell_prefix=None, max_connections=None, instance="test"):
        command = [skanc, "serve", "--data", data, "--listen", "127.0.0.1:0", "--instance", instance] + list(extra)
        # The simulated postbacks are unsigned: without a quota of failed signatures, unless a scenario sets one.
        if "--unverified-quota" not in extra:
            command += ["--unverified-quota", "0"]
        if max_connections:
            command += ["--max-connections", str(max_connections)]
        if shell_prefix:
            command = ["bash", "-c", shell_prefix + ' exec "$@"', "bash"] + command
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("listening on "):
            fail("no 'listening on' line: %r %r" % (line, self.process.stderr.read()))
        self.port = int(line.strip().rsplit(":", 1)[1])
        if "--admin-listen" in extra:
            self.admin_port = int(self.process.stdout.readline().strip().rsplit(":", 1)[1])

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        return self.process.stderr.read()

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=60)
        if code != 0:
            fail("SIGTERM: exit %d, %s" % (code, self.process.stderr.read()))
        return self.process.stderr.read()


def post(port, body, path=SKAN_PATH, timeout=30, source=None, headers=None):
    """The status of one POST, or None when the connection failed (as a device sees a dead server). `source`
    is the client's own loopback address (127.0.0.2 is another client than 127.0.0.1)."""
    try:
        connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=timeout, source_address=(source, 0) if source else None)
        connection.request("POST", path, body=body, headers=dict({"Content-Type": "application/json"}, **(headers or {})))
        status = connection.getresponse().status
        connection.close()
        return status
    except (OSError, http.client.HTTPException):
        return None


def stored_lines(data, received=None):
    """Every stored line; with `received` (first, last Unix second), each segment's .times file must hold one
    time in that window for each of its lines."""
    lines = []
    root = os.path.join(data, "postbacks")
    for day in sorted(os.listdir(root)) if os.path.isdir(root) else []:
        for name in sorted(os.listdir(os.path.join(root, day))):
            if name.endswith(".jsonl"):
                with open(os.path.join(root, day, name), "rb") as handle:
                    content = handle.read()
                if content and not content.endswith(b"\n"):
                    fail("segment %s ends with a torn line after recovery" % name)
                lines += content.splitlines()
                if received is not None:
                    times_path = os.path.join(root, day, name[: -len(".jsonl")] + ".times")
                    with open(times_path, "rb") as handle:
                        times = handle.read().splitlines()
                    if len(times) != len(content.splitlines()):
                        fail("%s holds %d receipt times for %d lines" % (times_path, len(times), len(content.splitlines())))
                    outside = [t for t in times if not (received[0] <= int(t) <= received[1])]
                    if outside:
                        fail("%s holds times outside the run (%r), first %r" % (times_path, received, outside[0]))
    return lines


def crash(skanc, work, postbacks, seed, kills):
    rng = random.Random(seed)
    bodies = [line for line in open(postbacks, "rb").read().splitlines() if line.strip()]
    data = os.path.join(work, "store")
    started = int(time.time())
    acknowledged = set()
    pending = list(range(len(bodies)))
    lock = threading.Lock()
    state = {"port": None}
    receiver = Receiver(skanc, data)
    state["port"] = receiver.port
    restarts = 0

    def client():
        while True:
            with lock:
                if not pending:
                    return
                index = pending.pop()
            status = post(state["port"], bodies[index], timeout=10)
            with lock:
                if status == 200:
                    acknowledged.add(index)
                else:
                    pending.insert(0, index)
            if status != 200:
                time.sleep(0.01)

    threads = [threading.Thread(target=client) for _ in range(16)]
    for thread in threads:
        thread.start()
    for _ in range(kills):
        time.sleep(rng.uniform(0.05, 0.6))
        receiver.kill()
        receiver = Receiver(skanc, data)
        state["port"] = receiver.port
        restarts += 1
    for thread in threads:
        thread.join()
    receiver.stop()
    lines = stored_lines(data, received=(started, int(time.time())))
    stored = set(lines)
    missing = [index for index in acknowledged if bodies[index] not in stored]
    if missing:
        fail("%d acknowledged postbacks are not in the store (first: line %d)" % (len(missing), missing[0] + 1))
    if len(acknowledged) != len(bodies):
        fail("only %d of %d postbacks were ever acknowledged" % (len(acknowledged), len(bodies)))
    unknown = stored - set(bodies)
    if unknown:
        fail("%d stored lines are not postbacks that were sent" % len(unknown))
    rejects = os.listdir(os.path.join(data, "rejects"))
    torn = [name for name in rejects if name.startswith("torn-")]
    print(
        "crash: seed %d, %d postbacks, %d kills and restarts, %d lines stored (%d re-sent after a kill), "
        "%d torn lines moved to rejects/" % (seed, len(bodies), restarts, len(lines), len(lines) - len(stored), len(torn)))


def fault(skanc, work, postbacks):
    bodies = [line for line in open(postbacks, "rb").read().splitlines() if line.strip()]
    data = os.path.join(work, "store")
    # 8 blocks of 1 KiB: the first segment fills after a few postbacks, and writing past it fails with EFBIG.
    receiver = Receiver(skanc, data, shell_prefix="ulimit -f 8;")
    statuses = [post(receiver.port, body) for body in bodies]
    receiver.stop()
    ok = [index for index, status in enumerate(statuses) if status == 200]
    refused = [index for index, status in enumerate(statuses) if status == 503]
    if len(ok) + len(refused) != len(bodies):
        fail("answers other than 200 and 503: %r" % sorted(set(statuses)))
    if not refused:
        fail("no write failed under ulimit -f 8")
    stored = stored_lines(data)
    for index in ok:
        if bodies[index] not in stored:
            fail("postback %d was answered 200 but is not stored" % index)
    for index in refused:
        if bodies[index] in stored:
            fail("postback %d was answered 503 but is stored" % index)
    receiver = Receiver(skanc, data)
    again = [post(receiver.port, bodies[index]) for index in refused]
    receiver.stop()
    if any(status != 200 for status in again):
        fail("re-sent postbacks not stored: %r" % again)
    stored = stored_lines(data)
    if sorted(stored) != sorted(bodies):
        fail("the store does not hold each postback once")
    print("fault: %d postbacks, %d stored under the limit, %d answered 503 and stored once when sent again"
          % (len(bodies), len(ok), len(refused)))


def raw(port, data, read_until_close=True, timeout=10):
    """Sends bytes on a fresh connection and returns what comes back (until the server closes)."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    connection.sendall(data)
    answer = b""
    try:
        while True:
            chunk = connection.recv(65536)
            if not chunk:
                break
            answer += chunk
            if not read_until_close and b"\r\n\r\n" in answer:
                break
    except (socket.timeout, ConnectionResetError):
        pass
    connection.close()
    return answer


def hostile(skanc, work, postbacks):
    bodies = [line for line in open(postbacks, "rb").read().splitlines() if line.strip()]
    data = os.path.join(work, "store")
    receiver = Receiver(skanc, data, extra=["--request-timeout", "1", "--max-body", "4096"],
                        shell_prefix="ulimit -n 128; ulimit -Hn 128;", max_connections=40)
    port = receiver.port
    sent = []

    def still_serving(after):
        body = bodies[len(sent) % len(bodies)]
        status = post(port, body)
        if status != 200:
            fail("after %s, a well-formed postback got %r" % (after, status))
        sent.append(body)

    host = b"Host: x\r\n"
    cases = [
        ("an oversized header", b"POST " + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host + b"X: " + b"a" * 70000 + b"\r\n\r\n", b" 431 "),
        ("an oversized body", b"POST " + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host + b"Content-Length: 5000\r\n\r\n", b" 413 "),
        ("an oversized chunked body", b"POST " + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host + b"Transfer-Encoding: chunked\r\n\r\n1001\r\n" + b"a" * 4097 + b"\r\n0\r\n\r\n", b" 413 "),
        ("Content-Length with Transfer-Encoding", b"POST " + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host + b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", b" 400 "),
        ("two Content-Lengths", b"POST " + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host + b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", b" 400 "),
        ("malformed chunking", b"POST " + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host + b"Transfer-Encoding: chunked\r\n\r\nxyz\r\n", b" 400 "),
        ("an absolute-form target", b"POST http://x" + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host + b"Content-Length: 2\r\n\r\n{}", b" 400 "),
        ("a dot-dot target", b"POST /.well-known/skadnetwork/..%2freport-attribution/ HTTP/1.1\r\n" + host + b"Content-Length: 2\r\n\r\n{}", b" 404 "),
        ("a doubled slash", b"POST //.well-known/skadnetwork/report-attribution/ HTTP/1.1\r\n" + host + b"Content-Length: 2\r\n\r\n{}", b" 404 "),
        ("a body that is not JSON", b"POST " + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host + b"Content-Length: 4\r\nConnection: close\r\n\r\nnope", b" 400 "),
        ("a body of NUL bytes", b"POST " + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host + b"Content-Length: 8\r\nConnection: close\r\n\r\n" + b"\0" * 8, b" 400 "),
        ("a JSON array", b"POST " + AAK_PATH.encode() + b" HTTP/1.1\r\n" + host + b"Content-Length: 2\r\nConnection: close\r\n\r\n[]", b" 400 "),
        ("a body that is not UTF-8", b"POST " + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host + b"Content-Length: 12\r\nConnection: close\r\n\r\n" + b'{"a":"\xff\xfe"}  ', b" 400 "),
        ("an empty JSON object", b"POST " + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host + b"Content-Length: 2\r\nConnection: close\r\n\r\n{}", b" 400 "),
        ("a JSON object shaped like no postback", b"POST " + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host + b"Content-Length: 32\r\nConnection: close\r\n\r\n" + b'{"version":"4.0","forged":true} ', b" 400 "),
        ("a chunk-size line over 1 KiB", b"POST " + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host + b"Transfer-Encoding: chunked\r\n\r\n1;" + b"x" * 2000 + b"\r\n{\r\n0\r\n\r\n", b" 400 "),
        ("a PUT", b"PUT " + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host + b"Content-Length: 2\r\nConnection: close\r\n\r\n{}", b" 405 "),
        ("slow headers", b"POST " + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host, b" 408 "),
        ("a slow body", b"POST " + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host + b"Content-Length: 100\r\n\r\n{", b" 408 "),
    ]
    for name, request, expected in cases:
        answer = raw(port, request)
        if expected not in answer.split(b"\r\n", 1)[0] + b" ":
            fail("%s: expected%s, got %r" % (name, expected.decode(), answer[:80]))
        if b"a" * 20 in answer or b"nope" in answer:
            fail("%s: the answer reflects the request" % name)
        still_serving(name)
    # Expect: 100-continue: the body is sent only once the receiver says so, as curl does for large bodies.
    body = bodies[len(sent) % len(bodies)]
    waiting = socket.create_connection(("127.0.0.1", port), timeout=30)
    waiting.sendall(b"POST " + SKAN_PATH.encode() + b" HTTP/1.1\r\n" + host + b"Expect: 100-continue\r\n"
                    b"Content-Length: %d\r\n\r\n" % len(body))
    interim = waiting.recv(1024)
    if interim != b"HTTP/1.1 100 Continue\r\n\r\n":
        fail("Expect: 100-continue got %r" % interim[:80])
    waiting.sendall(body)
    final = waiting.recv(1024)
    waiting.close()
    if not final.startswith(b"HTTP/1.1 200 "):
        fail("the body sent after 100 Continue got %r" % final[:80])
    sent.append(body)
    # More connections than it serves at once (its descriptors are enough for --max-connections: checked at
    # start): the rest wait to be accepted; the receiver neither spins nor stops.
    held = []
    for _ in range(100):
        try:
            held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        except OSError:
            break
    stat_before = cpu_seconds(receiver.process.pid)
    time.sleep(1.0)
    spent = cpu_seconds(receiver.process.pid) - stat_before
    for connection in held:
        connection.close()
    if spent > 0.5:
        fail("with descriptors exhausted the receiver spent %.2f s of CPU in 1 s (spinning)" % spent)
    still_serving("more connections than it serves at once")
    text = receiver.stop()
    # SIGTERM the moment it says it listens: a graceful stop, exit 0.
    Receiver(skanc, os.path.join(work, "sigterm")).stop()
    # Too few descriptors for --max-connections: refused at start, saying what to change, never EMFILE later.
    short = subprocess.run(["bash", "-c", 'ulimit -n 64; ulimit -Hn 64; exec "$@"', "bash", skanc, "serve", "--data",
                            data, "--listen", "127.0.0.1:0"], capture_output=True, text=True, timeout=60)
    if short.returncode != 1 or "RLIMIT_NOFILE" not in short.stderr or "listening" in short.stdout:
        fail("with 64 descriptors for 1024 connections: exit %d, %r" % (short.returncode, short.stderr))
    stored = stored_lines(data)
    if sorted(stored) != sorted(sent):
        fail("the store holds %d lines, %d postbacks were acknowledged" % (len(stored), len(sent)))
    rejects = os.listdir(os.path.join(data, "rejects"))
    if rejects:
        fail("refused bodies were written to rejects/: %r" % rejects)
    print("hostile: %d hostile requests answered as expected, %d held connections (40 served) with %.2f s CPU "
          "in 1 s, %d well-formed postbacks stored" % (len(cases), len(held), spent, len(stored)))


def rss_kib(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def store_bytes(data):
    total = 0
    for root, _, names in os.walk(data):
        total += sum(os.path.getsize(os.path.join(root, name)) for name in names)
    return total


def signed_postbacks(skanc, users, seed=3):
    """Simulated SKAdNetwork postbacks signed with the test key, and the --public-key argument that verifies them."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    made = subprocess.run([skanc, "simulate", os.path.join(root, "Schemas", "Game.skan"),
                           os.path.join(root, "Tests/Fixtures/journeys/game.jsonl"), "--postbacks", "--users",
                           str(users), "--framework", "skadnetwork", "--sign-with",
                           os.path.join(root, "Tests/Fixtures/keys/rfc6979-test-key.pem"), "--seed", str(seed)],
                          capture_output=True, check=True)
    key = re.search(r"skadnetwork=(\S+)", made.stderr.decode()).group(1)
    return [line for line in made.stdout.splitlines() if line.strip()], "skadnetwork=" + key


def flood(skanc, work, postbacks):
    """Four clients post junk as fast as they can while a device posts genuine signed postbacks: two send JSON
    objects of about 1 KiB that are no postback (one of them as a forged client through the proxy, past its
    rate), two send forgeries of the device's postbacks (the right shape, signatures that fail). Every genuine
    postback is answered 200 and stored; nothing of the junk is written anywhere; the forgeries stop being stored
    once past their quota (503 then); the rest of the flood gets 400 and 429."""
    bodies, key = signed_postbacks(skanc, 150)
    data = os.path.join(work, "store")
    receiver = Receiver(skanc, data, extra=["--rate-limit", "50", "--public-key", key, "--unverified-quota", "50"])
    junk = json.dumps({"version": "4.0", "padding": "x" * 1000}).encode()
    forged = [re.sub(rb'"transaction-id":"[^"]*"', b'"transaction-id":"%08x-0000-4000-8000-000000000000"' % n,
                     bodies[n % len(bodies)]) for n in range(2000)]
    stop = threading.Event()
    refused = {}
    sent_forgeries = set()
    lock = threading.Lock()

    def flooder(index):
        connection = None
        turn = 0
        while not stop.is_set():
            try:
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", receiver.port, timeout=30)
                # The first comes through the proxy as a forged client: it is rate limited.
                headers = {"X-Forwarded-For": "198.51.100.9"} if index == 0 else {}
                body = junk if index < 2 else forged[(turn * 2 + index) % len(forged)]
                turn += 1
                connection.request("POST", SKAN_PATH, body=body, headers=headers)
                answer = connection.getresponse()
                answer.read()
                with lock:
                    key = ("junk" if index < 2 else "forged", answer.status)
                    refused[key] = refused.get(key, 0) + 1
                    if index >= 2:
                        sent_forgeries.add(body)
                if answer.getheader("Connection") == "close":
                    connection.close()
                    connection = None
            except (OSError, http.client.HTTPException):
                connection = None

    threads = [threading.Thread(target=flooder, args=(index,)) for index in range(4)]
    for thread in threads:
        thread.start()
    statuses = []
    # The device posts until the forgeries have been refused a while (their quota passed), then the rest.
    for index, body in enumerate(bodies):
        statuses.append(post(receiver.port, body, headers={"X-Forwarded-For": "203.0.113.%d" % (index % 200)}))
        if index == len(bodies) // 2:
            while refused.get(("forged", 503), 0) < 100:
                time.sleep(0.05)
    stop.set()
    for thread in threads:
        thread.join()
    receiver.stop()
    if any(status != 200 for status in statuses):
        fail("under the flood, genuine postbacks got %r" % sorted(set(statuses)))
    stored = stored_lines(data)
    genuine = set(bodies)
    if not genuine <= set(stored):
        fail("%d genuine postbacks are not in the store" % len(genuine - set(stored)))
    stranger = [line for line in stored if line not in genuine and line not in sent_forgeries]
    if stranger:
        fail("the store holds %d lines nobody sent as a postback" % len(stranger))
    if os.listdir(os.path.join(data, "rejects")):
        fail("junk was written to rejects/")
    if not refused.get(("junk", 400)) or not refused.get(("junk", 429)) or not refused.get(("forged", 503)):
        fail("the flood was not refused with 400, 429 and (past the quota) 503: %r" % refused)
    forgeries_stored = len(stored) - len(genuine)
    forgeries_sent = sum(count for (kind, _), count in refused.items() if kind == "forged")
    print("flood: %d genuine postbacks stored beside %d bodies of junk refused (400: %d, 429: %d); of %d forgeries, "
          "%d stored before their quota passed, %d answered 503"
          % (len(bodies), refused[("junk", 400)] + refused[("junk", 429)], refused[("junk", 400)],
             refused[("junk", 429)], forgeries_sent, forgeries_stored, refused[("forged", 503)]))


def pipeline(skanc, work, postbacks):
    """A client pipelines requests and never reads an answer: the receiver stops reading it once its answers
    back up, so the process does not grow, and it goes on serving others."""
    bodies = [line for line in open(postbacks, "rb").read().splitlines() if line.strip()]
    data = os.path.join(work, "store")
    receiver = Receiver(skanc, data)
    before = rss_kib(receiver.process.pid)
    request = b"GET " + SKAN_PATH.encode() + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    greedy = socket.create_connection(("127.0.0.1", receiver.port))
    greedy.setblocking(False)
    chunk = request * 1000
    sent = 0
    limit = 32 * 1024 * 1024
    # Sends until the connection has taken nothing for two seconds (the receiver stopped reading it) or 32 MiB
    # went in (it did not: what the kernel's buffers and the receiver's bounded backlog hold is a few MiB).
    stalled_since = None
    while sent < limit and (stalled_since is None or time.monotonic() - stalled_since < 2):
        try:
            sent += greedy.send(chunk)
            stalled_since = None
        except BlockingIOError:
            stalled_since = stalled_since or time.monotonic()
            time.sleep(0.02)
    after = rss_kib(receiver.process.pid)
    status = post(receiver.port, bodies[0])
    greedy.close()
    receiver.stop()
    if status != 200:
        fail("beside the pipelining client, a postback got %r" % status)
    if sent >= limit:
        fail("the receiver read 32 MiB of pipelined requests whose answers were never read (RSS %d -> %d KiB)"
             % (before, after))
    if after - before > 64 * 1024:
        fail("the receiver grew from %d to %d KiB under pipelining" % (before, after))
    print("pipeline: %d KiB sent before the receiver stopped reading; RSS %d -> %d KiB" % (sent // 1024, before, after))


def slots(skanc, work, postbacks):
    """One address opens more connections than its share and sends nothing: past its share they are closed at
    once, the rest at the request timeout (counted from accept), and another client is served. With every public
    slot taken, the admin port still answers."""
    bodies = [line for line in open(postbacks, "rb").read().splitlines() if line.strip()]
    receiver = Receiver(skanc, os.path.join(work, "store"), extra=[
        "--trusted-proxy", "none", "--max-connections-per-client", "10", "--request-timeout", "3",
        "--admin-listen", "127.0.0.1:0"])
    held = []
    for source in ["127.0.0.1", "127.0.0.3", "127.0.0.4"]:
        for _ in range(25):
            held.append(socket.create_connection(("127.0.0.1", receiver.port), source_address=(source, 0)))
    # Every one ends: past its address's share of 10 at once, the others at the request timeout.
    for connection in held:
        connection.settimeout(60)
        try:
            connection.recv(1)
        except OSError:
            pass
        connection.close()
    admin = http.client.HTTPConnection("127.0.0.1", receiver.admin_port, timeout=30)
    admin.request("GET", "/metrics")
    text = admin.getresponse().read().decode()
    closed_at_once = sum(int(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                         if line.startswith('skanc_bodies_refused_total{reason="too-many-connections"}'))
    status = post(receiver.port, bodies[0], source="127.0.0.2")
    receiver.stop()
    if closed_at_once != 45:
        fail("%d of 75 connections were closed at once, 45 expected (10 per address kept)" % closed_at_once)
    if status != 200:
        fail("after the idle connections timed out, a postback got %r" % status)

    receiver = Receiver(skanc, os.path.join(work, "store"), extra=[
        "--max-connections", "5", "--request-timeout", "600", "--admin-listen", "127.0.0.1:0"])
    held = [socket.create_connection(("127.0.0.1", receiver.port)) for _ in range(10)]
    admin = http.client.HTTPConnection("127.0.0.1", receiver.admin_port, timeout=30)
    admin.request("GET", "/metrics")
    text = admin.getresponse().read().decode()
    public = int(re.search(r"^skanc_open_connections (\d+)$", text, re.M).group(1)) - 1
    receiver.stop()
    for connection in held:
        connection.close()
    if public != 5:
        fail("%d public connections open beside the admin's, 5 expected (the budget)" % public)
    print("slots: 75 idle connections from 3 addresses, 45 closed at once, 30 at the request timeout; another "
          "client stored its postback; with the 5 public slots taken, the admin port answered")


def metrics(port):
    """The receiver's metrics as {sample: value}, once it has counted everything acknowledged."""
    while True:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode()
        connection.close()
        samples = dict(line.rsplit(" ", 1) for line in text.splitlines() if line and not line.startswith("#"))
        if samples.get("skanc_postbacks_uncounted") == "0":
            return {name: int(float(value)) for name, value in samples.items()}


def restart(skanc, work, postbacks):
    """Postbacks sent again after a restart (a device retrying one whose 200 it never saw) count as duplicates of
    what the store already holds, not as new ones; /report then equals `skanc report` over the store, and is made
    from the counts, not by reading the store again."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    schema = os.path.join(root, "Schemas", "Game.skan")
    # Signed, so that a duplicate is a duplicate (an unverified postback is a bad signature first).
    made = subprocess.run([skanc, "simulate", schema, os.path.join(root, "Tests/Fixtures/journeys/game.jsonl"),
                           "--postbacks", "--users", "60", "--framework", "skadnetwork", "--sign-with",
                           os.path.join(root, "Tests/Fixtures/keys/rfc6979-test-key.pem"), "--seed", "3"],
                          capture_output=True, check=True)
    bodies = [line for line in made.stdout.splitlines() if line.strip()]
    key = re.search(r"skadnetwork=(\S+)", made.stderr.decode()).group(1)
    data = os.path.join(work, "store")
    extra = ["--admin-listen", "127.0.0.1:0", "--schema", schema, "--public-key", "skadnetwork=" + key]
    receiver = Receiver(skanc, data, extra=extra)
    if any(post(receiver.port, body) != 200 for body in bodies):
        fail("a postback was not stored")
    receiver.stop()
    receiver = Receiver(skanc, data, extra=extra)
    if any(post(receiver.port, body) != 200 for body in bodies):
        fail("a postback sent again was not stored")
    counts = metrics(receiver.admin_port)
    ok = counts['skanc_postbacks_by_status_total{status="ok"}']
    duplicates = counts['skanc_postbacks_by_status_total{status="duplicate"}']
    report = http.client.HTTPConnection("127.0.0.1", receiver.admin_port, timeout=60)
    report.request("GET", "/report?format=json")
    live = report.getresponse().read()
    # The segments now say something else entirely: a report made by reading them again would change.
    segments = sorted(glob.glob(os.path.join(data, "postbacks", "*", "*.jsonl")))
    saved = {path: open(path, "rb").read() for path in segments}
    for path in segments:
        with open(path, "wb") as handle:
            handle.write(saved[segments[0]][: saved[segments[0]].index(b"\n") + 1] * 3)
    report.request("GET", "/report?format=json")
    again = report.getresponse().read()
    receiver.stop()
    for path, content in saved.items():
        with open(path, "wb") as handle:
            handle.write(content)
    expected = subprocess.run([skanc, "report", schema, "--format", "json", "--public-key", "skadnetwork=" + key]
                              + segments,
                              capture_output=True).stdout
    if ok + duplicates != 2 * len(bodies) or duplicates < len(bodies):
        fail("after a restart, %d postbacks sent twice counted %d ok and %d duplicates" % (len(bodies), ok, duplicates))
    if live != again:
        fail("/report changed when the segments did: it read the store again")
    # The CLI reads the segments' receipt times and adds the days' trend; /report is made from the counter's
    # counts, which have no days: every other figure is the same.
    expected_report = json.loads(expected)
    expected_report.pop("trend", None)
    if json.loads(live) != expected_report:
        fail("/report differs from skanc report over the store")
    print("restart: %d postbacks sent before and after a restart: %d ok, %d duplicates; /report equals skanc report "
          "and is made from the counts" % (len(bodies), ok, duplicates))


def shared(skanc, work, postbacks):
    """Two receivers share one store under their own --instance; one is killed and restarted again and again
    while both receive: the survivor's segments are never cut or rewritten (every line keeps its receipt time),
    every acknowledged postback is stored, and a second receiver with the same --instance is refused."""
    bodies = [line for line in open(postbacks, "rb").read().splitlines() if line.strip()]
    data = os.path.join(work, "store")
    started = int(time.time())
    steady = Receiver(skanc, data, instance="a")
    same = subprocess.run([skanc, "serve", "--data", data, "--listen", "127.0.0.1:0", "--instance", "a"],
                          capture_output=True, text=True, timeout=60)
    if same.returncode != 1 or "--instance a" not in same.stderr:
        fail("a second receiver with --instance a: exit %d, %r" % (same.returncode, same.stderr))
    state = {"port": Receiver(skanc, data, instance="b")}
    acknowledged = []
    lock = threading.Lock()
    queue = list(enumerate(bodies))

    def client(target):
        while True:
            with lock:
                if not queue:
                    return
                index, body = queue.pop()
            port = steady.port if target == "a" else state["port"].port
            status = post(port, body, timeout=10)
            with lock:
                if status == 200:
                    acknowledged.append(index)
                else:
                    queue.insert(0, (index, body))

    threads = [threading.Thread(target=client, args=("a" if n % 2 else "b",)) for n in range(8)]
    for thread in threads:
        thread.start()
    for _ in range(5):
        time.sleep(0.2)
        state["port"].kill()
        state["port"] = Receiver(skanc, data, instance="b")
    for thread in threads:
        thread.join()
    state["port"].stop()
    steady.stop()
    lines = stored_lines(data, received=(started, int(time.time())))
    missing = [index for index in acknowledged if bodies[index] not in set(lines)]
    if missing:
        fail("%d acknowledged postbacks are not in the store" % len(missing))
    print("shared: %d postbacks through two receivers on one store, one killed and restarted 5 times; every "
          "line has its receipt time" % len(bodies))


class Destination:
    """A partner's HTTP server on the loopback interface, recording what it is sent (path, content type, body).
    `behaviour` is "good", "slow" (50 ms an answer) or "flaky" (of every twelve requests: a 500, a reset and a
    1.5 s stall past the forwarder's 1 s timeout; 200 to the rest). Started later with `start()` when `down`."""

    def __init__(self, behaviour, down=False):
        self.behaviour = behaviour
        self.received = []
        self.requests = 0
        self.lock = threading.Lock()
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self.server = None
        if not down:
            self.start()

    def start(self):
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", self.port))
        self.server.listen(64)
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(connection,), daemon=True).start()

    def serve(self, connection):
        reader = connection.makefile("rb")
        try:
            while True:
                line = reader.readline()
                if not line:
                    return
                method, path, _ = line.decode().split(" ", 2)
                headers = {}
                while True:
                    header = reader.readline().decode()
                    if header in ("\r\n", ""):
                        break
                    name, value = header.split(":", 1)
                    headers[name.strip().lower()] = value.strip()
                body = reader.read(int(headers.get("content-length", "0")))
                with self.lock:
                    self.requests += 1
                    turn = self.requests
                if self.behaviour == "flaky" and turn % 12 == 1:
                    connection.sendall(b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n")
                    continue
                if self.behaviour == "flaky" and turn % 12 == 5:
                    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    connection.close()
                    return
                if self.behaviour == "flaky" and turn % 12 == 9:
                    time.sleep(1.5)
                    connection.close()
                    return
                if self.behaviour == "slow":
                    time.sleep(0.05)
                with self.lock:
                    self.received.append((method, path, headers.get("content-type"), body))
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n")
        except OSError:
            return
        finally:
            connection.close()


def relay(skanc, work, postbacks):
    """Every stored postback reaches every destination byte for byte, at the path Apple posted it to: a good one,
    a slow one, a flaky one (500s, resets, timeouts), one down until the posting is over, and one that takes one
    ad network only; the receiver is SIGKILLed twice while it forwards. Nothing is lost; duplicates are allowed
    and counted."""
    lines = [line for line in open(postbacks, "rb").read().splitlines() if line.strip()]
    # A third of them from another ad network (their signatures no longer hold: forwarded all the same).
    bodies = [line.replace(b"example123.skadnetwork", b"other.skadnetwork") if index % 3 == 0 else line
              for index, line in enumerate(lines)]
    destinations = {"good": Destination("good"), "slow": Destination("slow"), "flaky": Destination("flaky"),
                    "late": Destination("good", down=True), "other": Destination("good")}
    extra = ["--admin-listen", "127.0.0.1:0", "--forward-timeout", "1",
             "--forward-filter", "other=ad-network-id:other.skadnetwork"]
    for name, destination in destinations.items():
        extra += ["--forward", "%s=http://127.0.0.1:%d" % (name, destination.port)]
    data = os.path.join(work, "store")
    receiver = Receiver(skanc, data, extra=extra)
    kills = 0
    for index, body in enumerate(bodies):
        while post(receiver.port, body) != 200:
            time.sleep(0.01)
        if index in (len(bodies) // 3, 2 * len(bodies) // 3):
            receiver.kill()
            kills += 1
            receiver = Receiver(skanc, data, extra=extra)
    destinations["late"].start()
    while True:
        counts = metrics(receiver.admin_port)
        if all(counts['skanc_forward_lag_postbacks{destination="%s"}' % name] == 0 for name in destinations):
            break
        time.sleep(0.2)
    receiver.stop()
    stored = stored_lines(data)
    if sorted(stored) != sorted(bodies):
        fail("the store holds %d lines for %d postbacks" % (len(stored), len(bodies)))
    summary = []
    for name, destination in destinations.items():
        expected = [body for body in bodies if name != "other" or b"other.skadnetwork" in body]
        got = [entry[3] for entry in destination.received]
        if set(got) != set(expected):
            fail("%s received %d distinct postbacks of %d" % (name, len(set(got)), len(set(expected))))
        wrong = [entry for entry in destination.received
                 if entry[0] != "POST" or entry[1] != SKAN_PATH or entry[2] != "application/json"]
        if wrong:
            fail("%s received a postback as %r" % (name, wrong[0][:3]))
        summary.append("%s %d (%d again)" % (name, len(got), len(got) - len(set(got))))
    flaky = counts['skanc_forward_failed_total{destination="flaky"}']
    if flaky == 0:
        fail("the flaky destination failed no attempt")
    print("relay: %d postbacks stored, %d kills while forwarding; delivered: %s; flaky failed %d attempts"
          % (len(bodies), kills, ", ".join(summary), flaky))


def cpu_seconds(pid):
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    skanc, scenario, work = sys.argv[1], sys.argv[2], sys.argv[3]
    options = dict(zip(sys.argv[4::2], sys.argv[5::2]))
    if scenario == "crash":
        crash(skanc, work, options["--postbacks"], int(options.get("--seed", "1")), int(options.get("--kills", "5")))
    elif scenario == "fault":
        fault(skanc, work, options["--postbacks"])
    elif scenario == "hostile":
        hostile(skanc, work, options["--postbacks"])
    elif scenario in ("flood", "pipeline", "slots", "restart", "shared", "relay"):
        globals()[scenario](skanc, work, options["--postbacks"])
    else:
        fail("unknown scenario " + scenario)


if __name__ == "__main__":
    main()
