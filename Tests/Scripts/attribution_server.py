#!/usr/bin/env python3
"""A stand-in for Apple's attribution API on the loopback interface, for the runtime's HTTP client tests.

usage: attribution_server.py DIRECTORY STATUS[,STATUS...]
Listens on 127.0.0.1 on a free port and prints the port as one line on standard output. Answers the Nth POST
with the Nth status (the last one repeats); a 200 carries DIRECTORY/answer.json. Appends each request to
DIRECTORY/requests as a JSON line (method, path, content type, body). Stops when its standard input ends: the
test closes it when it is done, and if the test process dies the pipe closes with it, so the server never
outlives its test and needs no deadline.
"""
import http.server
import json
import os
import sys
import threading

directory, statuses = sys.argv[1], [int(s) for s in sys.argv[2].split(",")]
served = 0


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        global served
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode("utf-8", errors="replace")
        with open(os.path.join(directory, "requests"), "a") as log:
            log.write(json.dumps({"method": "POST", "path": self.path,
                                  "content_type": self.headers.get("Content-Type"), "body": body}) + "\n")
        status = statuses[min(served, len(statuses) - 1)]
        served += 1
        answer = open(os.path.join(directory, "answer.json"), "rb").read() if status == 200 else b""
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *arguments):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
print(server.server_address[1], flush=True)
sys.stdin.read()
server.shutdown()
