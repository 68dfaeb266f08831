#!/usr/bin/env python3
"""Times `skanc lsp` as an editor sees it: from writing a change of a 100-line schema to reading the diagnostics
published for it, and hover and completion requests on it.

usage: Benchmarks/lsp_latency.py [--skanc PATH] [--changes N] [--lines N]
Builds skanc in release mode unless --skanc names a binary. The document is Schemas/Game.skan (events, buckets,
a first-match field, coarse windows and locks, 49 lines) with a header comment that brings it to 100 lines, as
teams document their schemas; every change rewrites a description (full sync), every other one also breaks a
name, so half the answers carry an error. Prints the median, 95th percentile and worst time of each over N
changes (default 200), on one client, one at a time.
"""
import argparse
import json
import os
import statistics
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class Client:
    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(self.process.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == self.next_id:
                return message

    def notify_and_wait(self, method, params, version):
        """Sends a notification; returns when the diagnostics of `version` arrive."""
        self.send({"jsonrpc": "2.0", "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"].get("version") == version:
                return message["params"]["diagnostics"]


def document(size):
    """Game.skan brought to `size` lines: up to 100 with a header comment, as teams document their schemas;
    beyond, with as many events as rules of window 1 that read them (`medium when extra_N.count >= 2`), so the
    names grow with the lines."""
    game = open(os.path.join(ROOT, "Schemas", "Game.skan")).read()
    lines = game.rstrip("\n").split("\n")
    header = ["# Notes for the growth team: %d. what this part of the mapping is for, and who to ask." % n
              for n in range(max(100 - len(lines), 0))]
    extra = max(size - len(header) - len(lines), 0) // 2
    if extra:
        events = ["event extra_%d" % n for n in range(extra)]
        rules = ["  medium when extra_%d.count >= 2" % n for n in range(extra)]
        head = lines.index("coarse window 1 {") + 1
        lines = lines[:head] + rules + lines[head:]
        first_event = next(i for i, l in enumerate(lines) if l.startswith("event "))
        lines = lines[:first_event] + events + lines[first_event:]
    return "\n".join(header + lines) + "\n"


def summary(name, seconds):
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[int(len(ms) * 0.95) - 1]
    print(f"{name:<40} median {statistics.median(ms):7.2f} ms   p95 {p95:7.2f} ms   worst {ms[-1]:7.2f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--skanc")
    parser.add_argument("--changes", type=int, default=200)
    parser.add_argument("--lines", type=int, default=100, help="the document's size (default 100; try 5000)")
    args = parser.parse_args()
    skanc = args.skanc
    if not skanc:
        subprocess.run(["swift", "build", "-c", "release", "--product", "skanc"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        skanc = os.path.join(ROOT, ".build", "release", "skanc")
    text = document(args.lines)
    uri = "file:///Game.skan"
    client = Client([skanc, "lsp"])
    client.request("initialize", {"capabilities": {}})
    client.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    client.notify_and_wait("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "skan", "version": 0, "text": text}}, 0)
    print(f"skanc lsp ({skanc}) on a {text.count(chr(10))}-line schema, {args.changes} changes")
    changes, hovers, completions = [], [], []
    found = [0, 0]
    line = text.split("\n").index(next(l for l in text.split("\n") if l.startswith("field funnel")))
    for version in range(1, args.changes + 1):
        changed = text.replace('"Deepest step"', f'"Deepest step {version}"')
        if version % 2:
            changed = changed.replace("when add_to_cart", "when add_to_crt")
        start = time.perf_counter()
        diagnostics = client.notify_and_wait("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": changed}]}, version)
        changes.append(time.perf_counter() - start)
        found[version % 2] += any(d["severity"] == 1 for d in diagnostics)
        position = {"textDocument": {"uri": uri}, "position": {"line": line, "character": 8}}
        start = time.perf_counter()
        client.request("textDocument/hover", position)
        hovers.append(time.perf_counter() - start)
        start = time.perf_counter()
        client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                   "position": {"line": line + 1, "character": 19}})
        completions.append(time.perf_counter() - start)
    client.request("shutdown", None)
    client.send({"jsonrpc": "2.0", "method": "exit"})
    client.process.wait()
    assert found == [0, args.changes - args.changes // 2], f"errors on the wrong changes: {found}"
    summary("change -> published diagnostics", changes)
    summary("hover", hovers)
    summary("completion", completions)
    print("goal: every request under 50 ms at p95 (a change on a 100-line schema well under it)")


if __name__ == "__main__":
    main()
