#!/usr/bin/env python3
"""A small HTTP server for the store's tests and benchmark: serves the files of one folder
on 127.0.0.1 with HTTP Range, and misbehaves on request.

    python3 fault_server.py ROOT        prints "PORT <n>" once it listens

Control endpoints (JSON):
    POST   /_faults   {"path": "/a.db", "drop_after": 1000, "status": 503, "delay": 2.0,
                       "rate": 200000, "corrupt": true, "ignore_range": true, "times": 1}
                      sets the fault for one path; "times" is how many requests it spoils
                      (absent: all). drop_after closes the connection after that many body
                      bytes; status answers with that status; delay waits before answering;
                      rate sends at most that many bytes a second; corrupt flips one byte;
                      ignore_range answers 200 with everything to a Range request;
                      "then" (a fault of the same form) takes over once "times" is used up;
                      endless answers 200 with zeros that never end (256 MB at most);
                      html answers 200 with a captive portal's page; retry_after answers
                      the status (503) with that Retry-After header.
    Each log entry also has "at": the server's monotonic clock when the request arrived.
    DELETE /_faults   clears every fault
    GET    /_log      the requests so far: [{"path", "range", "status", "sent"}], status 0
                      while a request is unanswered
"""
import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.abspath(sys.argv[1])
FAULTS = {}
LOG = []
LOCK = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply_json(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        if self.path != "/_faults":
            return self.reply_json(404, {"error": "no such control"})
        length = int(self.headers.get("Content-Length", "0"))
        fault = json.loads(self.rfile.read(length) or b"{}")
        with LOCK:
            FAULTS[fault["path"]] = fault
        self.reply_json(200, {"ok": True})

    def do_DELETE(self):
        with LOCK:
            FAULTS.clear()
        self.reply_json(200, {"ok": True})

    def take_fault(self, path):
        with LOCK:
            fault = FAULTS.get(path)
            if fault is None:
                return {}
            if "times" in fault:
                fault["times"] -= 1
                if fault["times"] <= 0:
                    # "then": the fault that takes over once this one is used up.
                    if "then" in fault:
                        FAULTS[path] = fault["then"]
                    else:
                        del FAULTS[path]
            return dict(fault)

    def arrive(self, path, range_header):
        """Logs a request as it arrives (status 0 until answered), so that a client that
        gives up early still shows in the log."""
        self.entry = {"path": path, "range": range_header, "status": 0, "sent": 0, "at": time.monotonic()}
        with LOCK:
            LOG.append(self.entry)

    def record(self, path, range_header, status, sent):
        with LOCK:
            self.entry["status"] = status
            self.entry["sent"] = sent

    def do_GET(self):
        if self.path == "/_log":
            with LOCK:
                return self.reply_json(200, list(LOG))
        path = self.path.split("?")[0]
        range_header = self.headers.get("Range")
        self.arrive(path, range_header)
        fault = self.take_fault(path)
        if fault.get("delay"):
            time.sleep(fault["delay"])
        if fault.get("status"):
            self.record(path, range_header, fault["status"], 0)
            return self.reply_json(fault["status"], {"error": "injected"})
        if fault.get("endless"):
            return self.send_endless(path, range_header)
        if fault.get("html"):
            page = b"<!DOCTYPE html><html><head><title>Sign in</title></head><body>Welcome aboard! Sign in to use the Wi-Fi.</body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)
            return self.record(path, range_header, 200, len(page))
        if fault.get("retry_after") is not None:
            self.send_response(fault.get("status", 503))
            self.send_header("Retry-After", str(fault["retry_after"]))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return self.record(path, range_header, fault.get("status", 503), 0)
        file = os.path.realpath(os.path.join(ROOT, path.lstrip("/")))
        if not file.startswith(ROOT + os.sep) or not os.path.isfile(file):
            self.record(path, range_header, 404, 0)
            return self.reply_json(404, {"error": "not found"})
        size = os.path.getsize(file)
        start = 0
        status = 200
        if range_header and range_header.startswith("bytes=") and not fault.get("ignore_range"):
            first = range_header[6:].split("-")[0]
            start = int(first) if first else 0
            if start >= size:
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{size}")
                self.send_header("Content-Length", "0")
                self.send_header("Connection", "close")
                self.end_headers()
                return self.record(path, range_header, 416, 0)
            status = 206
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(size - start))
        self.send_header("Accept-Ranges", "bytes")
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{size - 1}/{size}")
        self.send_header("Connection", "close")
        self.end_headers()
        sent = self.send_body(file, start, size, fault)
        self.record(path, range_header, status, sent)

    def send_endless(self, path, range_header):
        """200 with a body that never ends (zeros, without a length), until the client
        hangs up or 256 MB were sent."""
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        sent = 0
        chunk = bytes(65536)
        try:
            while sent < 256 << 20:
                self.wfile.write(chunk)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True
        self.record(path, range_header, 200, sent)

    def send_body(self, file, start, size, fault):
        drop_after = fault.get("drop_after")
        rate = fault.get("rate")
        corrupt_at = size // 2 if fault.get("corrupt") else None
        with open(file, "rb") as handle:
            if drop_after is None and rate is None and corrupt_at is None:
                self.wfile.flush()
                return self.connection.sendfile(handle, offset=start, count=size - start)
            handle.seek(start)
            position = start
            sent = 0
            chunk = 16384 if rate else 262144
            began = time.monotonic()
            while position < size:
                data = handle.read(min(chunk, size - position))
                if corrupt_at is not None and position <= corrupt_at < position + len(data):
                    index = corrupt_at - position
                    data = data[:index] + bytes([data[index] ^ 0xFF]) + data[index + 1:]
                if drop_after is not None and sent + len(data) >= drop_after:
                    data = data[: max(0, drop_after - sent)]
                    self.wfile.write(data)
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return sent + len(data)
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    return sent
                position += len(data)
                sent += len(data)
                if rate:
                    ahead = sent / rate - (time.monotonic() - began)
                    if ahead > 0:
                        time.sleep(ahead)
            return sent


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64


if __name__ == "__main__":
    server = Server(("127.0.0.1", 0), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()
