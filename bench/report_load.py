#!/usr/bin/env python3
"""How long a compile report takes to open in Debian's headless chromium.

    python3 bench/report_load.py REPORT.html [RUNS]

Drives chromedriver (chromium-driver) over WebDriver with the standard library alone and
prints, per run, the navigation timing of the page: DOMContentLoaded and load, in ms
(issue target: the 40 x feed's report under 2 s, and under 5 MB).
"""
import http.client
import json
import os
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    page = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    port = free_port()
    driver = subprocess.Popen(["chromedriver", f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)

        def request(method, path, body=None):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            connection.request(method, path, json.dumps(body) if body is not None else None, {"Content-Type": "application/json"})
            return json.loads(connection.getresponse().read())

        options = {"binary": "/usr/bin/chromium", "args": ["--headless=new", "--no-sandbox", "--disable-gpu"]}
        session = request("POST", "/session", {"capabilities": {"alwaysMatch": {"goog:chromeOptions": options}}})["value"]["sessionId"]
        print(f"{page}: {os.path.getsize(page):,} bytes")
        script = 'const n = performance.getEntriesByType("navigation")[0]; return [n.domContentLoadedEventEnd, n.loadEventEnd];'
        for run in range(runs):
            request("POST", f"/session/{session}/url", {"url": "file://" + page})
            loaded, done = request("POST", f"/session/{session}/execute/sync", {"script": script, "args": []})["value"]
            print(f"run {run + 1}: DOMContentLoaded {loaded:.0f} ms, load {done:.0f} ms")
        request("DELETE", f"/session/{session}")
    finally:
        driver.kill()


if __name__ == "__main__":
    main()
