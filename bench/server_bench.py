#!/usr/bin/env python3
"""`make bench-server`: transit-server's throughput beside transit-query batch, same queries,
same machine, in one run.

    bench/server_bench.py BIN_DIR BUNDLE [SECONDS]

1. Draws boards (departures at random stops and times), stop searches and plans from the
   bundle (seeded: the same queries every run).
2. In process: `transit-query batch --jobs CORES` answers the boards; queries per second.
3. Over HTTP: `transit-server` serves the bundle; wrk (keep-alive, 2 threads, 32 connections)
   asks the same boards, then a mix (70 % boards, 20 % stop searches, 10 % plans); requests
   per second and latency percentiles.
Prints a Markdown table (docs/performance.md keeps the last one with its command).
"""
import json, os, random, re, socket, sqlite3, subprocess, sys, tempfile, time
from urllib.parse import quote

bin_dir, bundle = sys.argv[1], sys.argv[2]
seconds = int(sys.argv[3]) if len(sys.argv) > 3 else 10
cores = os.cpu_count() or 2
rng = random.Random(20261202)

db = sqlite3.connect(bundle)
stops = [r[0] for r in db.execute("SELECT stop_id FROM stops WHERE location_type = 0 ORDER BY sid")]
names = [r[0] for r in db.execute("SELECT name FROM stops WHERE location_type = 0 ORDER BY sid")]
db.close()
info = json.loads(subprocess.run([f"{bin_dir}/transit-query", "info", "--bundle", bundle, "--json"], capture_output=True, check=True).stdout)
day = info["coverage"]["first_service_date"]
# A weekday two weeks into the timetable.
import datetime
d = datetime.date.fromisoformat(day) + datetime.timedelta(days=14)
while d.weekday() != 1:
    d += datetime.timedelta(days=1)
day = d.isoformat()

def at():
    return f"{day}T{rng.randint(6, 21):02d}:{rng.randint(0, 59):02d}"

boards = [(rng.choice(stops), at()) for _ in range(2000)]
searches = [" ".join(w[:4] for w in rng.choice(names).split()[:2]) or "a" for _ in range(400)]
plans = [(rng.choice(stops), rng.choice(stops), at()) for _ in range(200)]

def board_path(stop, when):
    return f"/v1/cts/departures?stop={quote(stop, safe='')}&at={when}&limit=10"

board_paths = [board_path(s, t) for s, t in boards]
mix_paths = []
for i in range(2000):
    r = rng.random()
    if r < 0.7:
        mix_paths.append(board_paths[i])
    elif r < 0.9:
        mix_paths.append(f"/v1/cts/stops?search={quote(rng.choice(searches), safe='')}&limit=10")
    else:
        f, t, w = rng.choice(plans)
        mix_paths.append(f"/v1/cts/plan?from={quote(f, safe='')}&to={quote(t, safe='')}&at={w}")

# In process: the same boards through transit-query batch, repeated to last a few seconds.
lines = "".join(json.dumps({"op": "departures", "stop": s, "at": t, "limit": 10}) + "\n" for s, t in boards) * 10
subprocess.run([f"{bin_dir}/transit-query", "batch", "--bundle", bundle], input=lines[:20000].encode(), capture_output=True)
start = time.monotonic()
out = subprocess.run([f"{bin_dir}/transit-query", "batch", "--bundle", bundle, "--jobs", str(cores)], input=lines.encode(),
                     capture_output=True, check=True).stdout
batch_elapsed = time.monotonic() - start
answered = out.count(b"\n")
assert answered == len(boards) * 10, answered
errors = out.count(b'"error"')
batch_qps = answered / batch_elapsed

server = subprocess.Popen([f"{bin_dir}/transit-server", "serve", "--bundle", f"cts={bundle}", "--port", "0", "--log-level", "warning"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
try:
    line = server.stdout.readline().decode()
    port = int(line.strip().rsplit(":", 1)[1])
    folder = tempfile.mkdtemp()

    def wrk(paths, name):
        listing = os.path.join(folder, name + ".txt")
        with open(listing, "w") as f:
            f.write("\n".join(paths) + "\n")
        script = os.path.join(folder, name + ".lua")
        with open(script, "w") as f:
            f.write(f"""
local paths = {{}}
for line in io.lines("{listing}") do paths[#paths + 1] = line end
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
""")
        # Warm up (every path once), then measure.
        subprocess.run(["wrk", "-t2", "-c8", "-d2s", "-s", script, f"http://127.0.0.1:{port}"], capture_output=True)
        text = subprocess.run(["wrk", "-t2", "-c32", f"-d{seconds}s", "--latency", "-s", script, f"http://127.0.0.1:{port}"],
                              capture_output=True, text=True, check=True).stdout
        rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
        pct = dict(re.findall(r"^\s+(50|75|90|99)%\s+([\d.]+\w+)", text, re.M))
        bad = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
        socket_errors = re.search(r"Socket errors: (.*)", text)
        return rps, pct, int(bad.group(1)) if bad else 0, socket_errors.group(1) if socket_errors else "none"

    board_rps, board_pct, board_bad, board_errors = wrk(board_paths, "boards")
    mix_rps, mix_pct, mix_bad, mix_errors = wrk(mix_paths, "mix")
finally:
    server.terminate()
    server.wait(timeout=30)

print(f"bundle {os.path.basename(bundle)}, {cores} cores, {seconds} s per wrk run, 2,000 distinct boards")
print()
print("| what | answers per second | p50 | p99 | non-2xx |")
print("|---|---|---|---|---|")
print(f"| boards, transit-query batch --jobs {cores} (in process) | {batch_qps:,.0f} | | | {errors} errors |")
print(f"| boards, transit-server over HTTP (wrk -t2 -c32, keep-alive) | {board_rps:,.0f} | {board_pct.get('50')} | {board_pct.get('99')} | {board_bad} (socket errors: {board_errors}) |")
print(f"| mix 70/20/10 boards/searches/plans over HTTP | {mix_rps:,.0f} | {mix_pct.get('50')} | {mix_pct.get('99')} | {mix_bad} (socket errors: {mix_errors}) |")
print()
print(f"server / batch for boards: {board_rps / batch_qps:.2f} (target: at least 0.5)")
