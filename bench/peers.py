"""make bench-peers: the bundle against the columnar tools a data engineer might pick instead.

For each feed: `unzip -p` (the floor), gtfs-compile, gtfs-garage-core (DuckDB over Parquet)
and gtfs-parquet's streaming converter (Polars); wall time (median of 3 runs, each tool in
its own process), bytes on disk, and a departures query (median over 50 random stops) where
the tool has one. Usage: python peers.py BIN_DIR WORK_DIR FEED.zip...
"""
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = 3


def timed(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def median_time(command):
    return statistics.median(timed(command) for _ in range(RUNS))


def folder_bytes(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)


# Each peer runs in a child Python so that its start-up and imports count, as they would in a pipeline.
GARAGE = """
import sys, time, random, statistics, datetime
from gtfs_garage_core import GtfsFeed
from gtfs_garage_core.service import active_services
feed = GtfsFeed(sys.argv[1], optimise=True)
if len(sys.argv) > 2:
    stops = [r[0] for r in feed.con.execute("SELECT stop_id FROM stops").fetchall()]
    day = datetime.date.fromisoformat(sys.argv[2])
    services = active_services(feed, day)
    random.seed(7)
    samples = []
    for stop in random.sample(stops, min(50, len(stops))):
        start = time.perf_counter()
        feed.con.execute(
            "SELECT st.departure_time, st.trip_id FROM stop_times st JOIN trips t ON t.trip_id = st.trip_id "
            "WHERE st.stop_id = ? AND st.departure_time >= '08:00:00' AND st.departure_time < '09:00:00' "
            "AND t.service_id IN (SELECT unnest(?)) ORDER BY st.departure_time LIMIT 20",
            [stop, services]).fetchall()
        samples.append(time.perf_counter() - start)
    print(statistics.median(samples) * 1000)
else:
    print(feed.stats.stored_bytes)
feed.close()
"""

PARQUET = """
import sys
from gtfs_parquet import convert_gtfs_zip
convert_gtfs_zip(sys.argv[1], sys.argv[2])
"""


def main():
    bin_dir, work = sys.argv[1], sys.argv[2]
    python = sys.executable
    rows = []
    for feed in sys.argv[3:]:
        name = os.path.basename(feed).removesuffix(".zip")
        bundle = os.path.join(work, f"peers-{name}.db")
        compile_cmd = [os.path.join(bin_dir, "gtfs-compile"), feed, "-o", bundle, "--quiet"]
        compile_s = median_time(compile_cmd)
        info = json.loads(subprocess.run(
            [os.path.join(bin_dir, "transit-query"), "info", "--bundle", bundle, "--json"],
            check=True, capture_output=True, text=True).stdout)
        stop_times = info["stop_times"]
        first_day = info["feeds"][0]["first_service_date"]
        unzip_s = median_time(["sh", "-c", f"unzip -p '{feed}' > /dev/null"])
        garage_s = median_time([python, "-c", GARAGE, feed])
        # DuckDB may draw a progress bar on stdout: the figure is the last line.
        garage_bytes = int(subprocess.run(
            [python, "-c", GARAGE, feed], check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1])
        # A weekday a week into the feed, so that most services run.
        import datetime
        day = datetime.date.fromisoformat(first_day) + datetime.timedelta(days=8)
        while day.weekday() > 4:
            day += datetime.timedelta(days=1)
        garage_ms = float(subprocess.run(
            [python, "-c", GARAGE, feed, day.isoformat()], check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1])
        out = tempfile.mkdtemp(prefix="peers-parquet-", dir=work)
        parquet_s = median_time([python, "-c", PARQUET, feed, out])
        parquet_bytes = folder_bytes(out)
        shutil.rmtree(out)
        bench = subprocess.run(
            [os.path.join(bin_dir, "transit-bench"), "departures", bundle, "2000"], check=True, capture_output=True, text=True).stdout
        cold = next(line for line in bench.splitlines() if " cold " in line).split("median")[1].split("us")[0].strip()
        rows.append((name, stop_times, os.path.getsize(feed), unzip_s, compile_s, os.path.getsize(bundle), garage_s, garage_bytes,
                     garage_ms, parquet_s, parquet_bytes, cold))
    print("| feed | stop_times | `unzip -p` (zip size) | gtfs-compile | bundle | gtfs-garage-core | its Parquet | gtfs-parquet | its Parquet | departures: bundle / DuckDB |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    mb = lambda b: f"{b / 1e6:.2f} MB"
    for (name, st, zip_b, unzip_s, compile_s, bundle_b, garage_s, garage_b, garage_ms, parquet_s, parquet_b, cold) in rows:
        print(f"| {name} | {st:,} | {unzip_s:.2f} s ({mb(zip_b)}) | {compile_s:.2f} s = {compile_s / unzip_s:.1f}x | "
              f"{mb(bundle_b)} = {bundle_b / st:.2f} B/st | {garage_s:.2f} s | {mb(garage_b)} | {parquet_s:.2f} s | {mb(parquet_b)} | "
              f"{cold} us / {garage_ms:.1f} ms |")


if __name__ == "__main__":
    main()
