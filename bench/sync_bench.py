#!/usr/bin/env python3
"""make bench-sync: rider-data sync timings (docs/performance.md, "Sync").

For SQLite and PostgreSQL (a cluster started on 127.0.0.1 as the postgres user): a push of
500 actions (time and bytes on the wire, request and answer), 20 such pushes to reach
10,000 changed items, then one pull of all 10,000 (limit=10000) and the same in pages of
1,000 as the device pulls. Then store-bench local-changes: a change applied and queued on
the device. Usage: sync_bench.py BIN_DIR
"""
import http.client, json, os, shutil, statistics, subprocess, sys, tempfile, time, uuid

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/release"
NOW_MS = 1780315200000


def start_postgres(folder):
    root = "/usr/lib/postgresql"
    version = sorted(int(v) for v in os.listdir(root) if v.isdigit())[-1]
    bin_dir = f"{root}/{version}/bin"
    port = free_port()
    run_as = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    if os.getuid() == 0:
        shutil.chown(folder, "postgres")
    subprocess.run(run_as + [f"{bin_dir}/initdb", "-D", f"{folder}/data", "-A", "trust", "-U", "postgres", "--no-sync"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(run_as + [f"{bin_dir}/pg_ctl", "-D", f"{folder}/data", "-o", f"-p {port} -k {folder} -h 127.0.0.1",
                             "-l", f"{folder}/log", "-w", "start"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, close_fds=True)
    subprocess.run(run_as + [f"{bin_dir}/createdb", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "sync"], check=True)
    stop = lambda: subprocess.run(run_as + [f"{bin_dir}/pg_ctl", "-D", f"{folder}/data", "-m", "fast", "-w", "stop"],
                                  stdout=subprocess.DEVNULL)
    return f"postgres://postgres@127.0.0.1:{port}/sync", stop


def free_port():
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def serve(address):
    token = subprocess.run([f"{BIN}/transit-server", "token", "add", "bench", "--sync-db", address], check=True,
                           capture_output=True, text=True).stdout.strip()
    server = subprocess.Popen([f"{BIN}/transit-server", "--sync-db", address, "--port", "0", "--log-level", "error",
                               "--now", "2026-06-01T12:00:00Z"], stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    return server, int(line.rsplit(":", 1)[1]), token


def actions(count, offset):
    return [{"id": str(uuid.uuid4()), "type": "SAVE", "entity": {"kind": "stop", "id": f"city/feed/STOP_{offset + i}"},
             "timestamp": NOW_MS - 60000 + i, "device_id": "bench"} for i in range(count)]


def exchange(port, token, method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    start = time.perf_counter()
    connection.request(method, path, body=body, headers={"Authorization": "Bearer " + token,
                                                         "Content-Type": "application/json"})
    response = connection.getresponse()
    data = response.read()
    elapsed = (time.perf_counter() - start) * 1000
    connection.close()
    assert response.status == 200, (response.status, data[:300])
    return elapsed, data


def bench(name, address):
    server, port, token = serve(address)
    try:
        device = {"id": "bench", "name": "bench", "type": "bench", "app_version": "1"}
        first = json.dumps({"device": device, "actions": actions(500, 0)}).encode()
        ms, answer = exchange(port, token, "POST", "/v1/sync/push", first)
        print(f"{name}: push of 500 actions: {ms:.1f} ms, {len(first):,} bytes sent, {len(answer):,} bytes answered")
        times = []
        for batch in range(1, 20):
            body = json.dumps({"device": device, "actions": actions(500, batch * 500)}).encode()
            t, _ = exchange(port, token, "POST", "/v1/sync/push", body)
            times.append(t)
        print(f"{name}: 19 more pushes of 500: median {statistics.median(times):.1f} ms, max {max(times):.1f} ms")
        ms, data = exchange(port, token, "GET", "/v1/sync/pull?limit=10000")
        records = len(json.loads(data)["records"])
        print(f"{name}: pull of {records:,} changed items in one page: {ms:.1f} ms, {len(data):,} bytes")
        total, pages, cursor, size = 0.0, 0, "", 0
        while True:
            t, data = exchange(port, token, "GET", f"/v1/sync/pull?limit=1000&cursor={cursor}")
            page = json.loads(data)
            total, pages, size, cursor = total + t, pages + 1, size + len(data), page["cursor"]
            if not page["more"]:
                break
        print(f"{name}: the same in {pages} pages of 1,000 (as a device pulls): {total:.1f} ms, {size:,} bytes")
    finally:
        server.terminate()
        server.wait()


def main():
    folder = tempfile.mkdtemp(prefix="sync-bench-")
    try:
        bench("SQLite", f"sqlite:{folder}/sync.db")
        pg_folder = tempfile.mkdtemp(prefix="sync-bench-pg-")
        os.chmod(pg_folder, 0o755)
        address, stop = start_postgres(pg_folder)
        try:
            bench("PostgreSQL", address)
        finally:
            stop()
            shutil.rmtree(pg_folder, ignore_errors=True)
        device = tempfile.mkdtemp(prefix="sync-bench-device-")
        print(subprocess.run([f"{BIN}/store-bench", "local-changes", device, "1000"], check=True,
                             capture_output=True, text=True).stdout, end="")
        shutil.rmtree(device, ignore_errors=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


main()
