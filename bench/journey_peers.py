"""make bench-peers, journeys: `transit-query plan` beside the two RAPTOR planners on PyPI.

The same seeded random stop-to-stop queries (08:00 on a weekday of the feed) go to
- transit-query batch (`plan` lines, 4 transfers at most, the toolkit's rules),
- pyraptor 1.3.10 (Python): its reader wants one date's services in calendar_dates.txt,
  every stop under a parent station, an agency picked by name and numeric trip short
  names, so this script writes the feed that way (`pyraptor_folder`); it groups stops by
  name into stations with a fixed 2-minute change and has no other walking,
- ferrobus 0.2.1 (Rust): it walks on an OpenStreetMap street network; the script draws a
  100 m grid of streets over the feed's area (`street_grid`, converted by osmium-tool),
  so walks follow the grid, not the straight line.
Each tool runs in its own process; load is the time until the first query can run, a
query the time of one answer after that. Arrivals are compared where both answer.

Usage: python journey_peers.py BIN_DIR WORK_DIR FEED.zip [QUERIES]
"""
import csv
import datetime
import io
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
import zipfile

ROUNDS = 5  # rides: 4 transfers, as `plan`'s default
DEPARTURE = 8 * 3600


def rows(archive, name):
    if name not in archive.namelist():
        return []
    with archive.open(name) as raw:
        return list(csv.DictReader(io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")))


def active_services(calendar, exceptions, day):
    """service_ids running on `day` by calendar.txt's rows and that day's calendar_dates.txt rows."""
    ymd = day.strftime("%Y%m%d")
    weekday = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][day.weekday()]
    running = {r["service_id"] for r in calendar if r["start_date"] <= ymd <= r["end_date"] and r[weekday] == "1"}
    for r in exceptions:
        (running.add if r["exception_type"] == "1" else running.discard)(r["service_id"])
    return running


def busiest_weekday(calendar, dates):
    """The weekday with the most services in the feed's first eight weeks, and its services."""
    by_date = {}
    for r in dates:
        by_date.setdefault(r["date"], []).append(r)
    first = datetime.datetime.strptime(min([r["start_date"] for r in calendar] + list(by_date)), "%Y%m%d").date()
    days = [first + datetime.timedelta(days=n) for n in range(56)]
    running = {d: active_services(calendar, by_date.get(d.strftime("%Y%m%d"), []), d) for d in days if d.weekday() < 5}
    day = max(running, key=lambda d: (len(running[d]), -d.toordinal()))
    return day, running[day]


def write_csv(path, header, records):
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(header)
        writer.writerows(records)


def pyraptor_folder(archive, day, services, folder):
    """The feed as pyraptor's reader expects it (see the module's comment). Route, trip and
    service ids get a letter prefix: pandas would otherwise read numeric ids as numbers in
    one file and as text in another. Returns the stops some trip of the day calls at."""
    os.makedirs(folder, exist_ok=True)
    write_csv(os.path.join(folder, "agency.txt"), ["agency_id", "agency_name"],
              [(r.get("agency_id", ""), "PEER") for r in rows(archive, "agency.txt")])
    agency = rows(archive, "agency.txt")[0].get("agency_id", "")
    write_csv(os.path.join(folder, "routes.txt"), ["route_id", "agency_id", "route_short_name", "route_long_name", "route_type"],
              [("R:" + r["route_id"], r.get("agency_id") or agency, r.get("route_short_name", ""), r.get("route_long_name", ""), r["route_type"])
               for r in rows(archive, "routes.txt")])
    trips = [r for r in rows(archive, "trips.txt") if r["service_id"] in services]
    write_csv(os.path.join(folder, "trips.txt"), ["route_id", "service_id", "trip_id", "trip_short_name", "trip_long_name"],
              [("R:" + r["route_id"], "S:" + r["service_id"], "T:" + r["trip_id"], n, "") for n, r in enumerate(trips)])
    write_csv(os.path.join(folder, "calendar_dates.txt"), ["service_id", "date", "exception_type"],
              [("S:" + s, day.strftime("%Y%m%d"), 1) for s in sorted(services)])
    kept = {r["trip_id"] for r in trips}
    served = set()
    with open(os.path.join(folder, "stop_times.txt"), "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["trip_id", "stop_sequence", "stop_id", "arrival_time", "departure_time"])
        for r in rows(archive, "stop_times.txt"):
            if r["trip_id"] in kept:
                writer.writerow(("T:" + r["trip_id"], r["stop_sequence"], r["stop_id"], r["arrival_time"], r["departure_time"]))
                served.add(r["stop_id"])
    write_csv(os.path.join(folder, "stops.txt"), ["stop_id", "stop_name", "parent_station", "platform_code", "stop_code"],
              [(r["stop_id"], r["stop_name"], "STATION:" + r["stop_name"], r.get("platform_code", ""), r.get("stop_code") or r["stop_id"])
               for r in rows(archive, "stops.txt") if r.get("location_type", "0") in ("", "0")])
    return served


def street_grid(stops, osm_path, pbf_path, spacing=100.0):
    """A square grid of residential streets `spacing` metres apart over the stops' area."""
    lats = [s[1] for s in stops]
    lons = [s[2] for s in stops]
    lat_step = spacing / 111_320.0
    lon_step = spacing / (111_320.0 * abs(math.cos(math.radians(statistics.mean(lats)))))
    lat0, lon0 = min(lats) - 5 * lat_step, min(lons) - 5 * lon_step
    rows_n = int((max(lats) - lat0) / lat_step) + 6
    cols_n = int((max(lons) - lon0) / lon_step) + 6
    node = lambda i, j: i * cols_n + j + 1
    with open(osm_path, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="journey_peers">\n')
        for i in range(rows_n):
            for j in range(cols_n):
                out.write(f'<node id="{node(i, j)}" version="1" lat="{lat0 + i * lat_step:.7f}" lon="{lon0 + j * lon_step:.7f}"/>\n')
        way = 1
        for i in range(rows_n):
            refs = "".join(f'<nd ref="{node(i, j)}"/>' for j in range(cols_n))
            out.write(f'<way id="{way}" version="1">{refs}<tag k="highway" v="residential"/></way>\n')
            way += 1
        for j in range(cols_n):
            refs = "".join(f'<nd ref="{node(i, j)}"/>' for i in range(rows_n))
            out.write(f'<way id="{way}" version="1">{refs}<tag k="highway" v="residential"/></way>\n')
            way += 1
        out.write("</osm>\n")
    subprocess.run(["osmium", "cat", osm_path, "-o", pbf_path, "--overwrite"], check=True)
    return rows_n * cols_n


# Each peer runs in a child Python: its imports and loading count as they would in an app.
PYRAPTOR = """
import json, sys, time
from loguru import logger
logger.remove()
start = time.perf_counter()
from pyraptor.gtfs.timetable import read_gtfs_timetable, gtfs_to_pyraptor_timetable
from pyraptor.model.raptor import RaptorAlgorithm
folder, ymd, rounds, queries = sys.argv[1], sys.argv[2], int(sys.argv[3]), json.loads(sys.stdin.read())
timetable = gtfs_to_pyraptor_timetable(read_gtfs_timetable(folder, ymd, ["PEER"]))
load = time.perf_counter() - start
answers = []
for origin, destination, departure in queries:
    start = time.perf_counter()
    bags = RaptorAlgorithm(timetable).run(timetable.stations.get(origin).stops, departure, rounds)
    # When a round marks no stop, pyraptor stops and leaves the later rounds' labels unset
    # (its own query reads only the last round): take the best of every round.
    arrival = min(bags[k][stop].earliest_arrival_time for k in bags for stop in timetable.stations.get_stops(destination))
    answers.append((arrival if arrival < 2147483647 else None, time.perf_counter() - start))
print(json.dumps({"load": load, "answers": answers}))
"""

FERROBUS = """
import datetime, json, sys, time
start = time.perf_counter()
import ferrobus
pbf, folder, ymd, transfers, queries = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), json.loads(sys.stdin.read())
model = ferrobus.create_transit_model(pbf, [folder], datetime.datetime.strptime(ymd, "%Y%m%d").date())
load = time.perf_counter() - start
answers = []
for (lat1, lon1), (lat2, lon2), departure in queries:
    start = time.perf_counter()
    try:
        a = ferrobus.create_transit_point(lat1, lon1, model)
        b = ferrobus.create_transit_point(lat2, lon2, model)
        route = ferrobus.find_route(model, a, b, departure, transfers)
    except (ValueError, RuntimeError):
        route = None
    arrival = departure + route["travel_time_seconds"] if route else None
    answers.append((arrival, time.perf_counter() - start))
print(json.dumps({"load": load, "answers": answers}))
"""


def child(command, queries):
    """Runs a peer in its own Python with the queries on stdin; its JSON answer."""
    done = subprocess.run([sys.executable, "-c", *command], input=json.dumps(queries), text=True, capture_output=True)
    if done.returncode != 0:
        sys.exit(f"{command[1:]} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def ours(bin_dir, bundle, day, queries):
    """Earliest arrival (seconds after the day's midnight) per query, and the load and
    per-query time of a batch process: one with the first query, one with the queries
    asked over and over (2,000 answers at least), so that the start-up's spread does not
    swamp the queries' time."""
    lines = [json.dumps({"id": n, "op": "plan", "from": o, "to": d, "at": f"{day.isoformat()}T08:00"}) + "\n"
             for n, (o, d) in enumerate(queries)]
    rounds = max(1, 2000 // len(lines))
    command = [os.path.join(bin_dir, "transit-query"), "batch", "--bundle", bundle]
    start = time.perf_counter()
    subprocess.run(command, input=lines[0], text=True, check=True, capture_output=True)
    one = time.perf_counter() - start
    start = time.perf_counter()
    out = subprocess.run(command, input="".join(lines) * rounds, text=True, check=True, capture_output=True).stdout
    every = time.perf_counter() - start
    arrivals = []
    for line in out.splitlines()[:len(lines)]:
        answer = json.loads(line)
        journeys = answer.get("journeys") or []
        if not journeys:
            arrivals.append(None)
            continue
        moment = datetime.datetime.fromisoformat(min(j["arrival"] for j in journeys))
        midnight = datetime.datetime.combine(day, datetime.time(0), moment.tzinfo)
        arrivals.append(int((moment - midnight).total_seconds()))
    return arrivals, one, (every - one) / (rounds * len(lines) - 1)


def compare(mine, theirs):
    both = [(m, t) for m, t in zip(mine, theirs) if m is not None and t is not None]
    same = sum(1 for m, t in both if m == t)
    earlier = sum(1 for m, t in both if m < t)
    later = sorted(t - m for m, t in both if t != m)
    spread = f" (theirs minus ours: median {statistics.median(later):+.0f} s)" if later else ""
    return f"same {same} of {len(both)}, ours earlier {earlier}, theirs earlier {len(both) - same - earlier}{spread}"


def main():
    bin_dir, work, feed = sys.argv[1], sys.argv[2], sys.argv[3]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    name = os.path.basename(feed).removesuffix(".zip")
    archive = zipfile.ZipFile(feed)
    day, services = busiest_weekday(rows(archive, "calendar.txt"), rows(archive, "calendar_dates.txt"))
    folder = os.path.join(work, f"pyraptor-{name}")
    served = pyraptor_folder(archive, day, services, folder)
    stops = [(r["stop_id"], float(r["stop_lat"]), float(r["stop_lon"]), r["stop_name"]) for r in rows(archive, "stops.txt")
             if r.get("location_type", "0") in ("", "0")]
    # Queries between stops some trip of the day calls at (pyraptor knows no other).
    served_stops = [s for s in stops if s[0] in served]
    rng = random.Random(7)
    queries = []
    while len(queries) < count:
        a, b = rng.sample(served_stops, 2)
        if a[3] != b[3]:
            queries.append((a, b))
    print(f"{name}: {count} queries (seed 7), {day.isoformat()} 08:00, at most {ROUNDS} rides", file=sys.stderr)

    bundle = os.path.join(work, f"peers-{name}.db")
    subprocess.run([os.path.join(bin_dir, "gtfs-compile"), feed, "-o", bundle, "--quiet"], check=True)
    mine, our_load, our_query = ours(bin_dir, bundle, day, [(a[0], b[0]) for a, b in queries])
    # The same places as points: walks of up to 800 m (straight line) to and from any stop.
    points, points_load, points_query = ours(bin_dir, bundle, day, [(f"{a[1]},{a[2]}", f"{b[1]},{b[2]}") for a, b in queries])

    raptor = child([PYRAPTOR, folder, day.strftime("%Y%m%d"), str(ROUNDS)], [(a[3], b[3], DEPARTURE) for a, b in queries])

    gtfs = os.path.join(work, f"ferrobus-{name}")
    archive.extractall(gtfs)
    pbf = os.path.join(work, f"grid-{name}.osm.pbf")
    nodes = street_grid(stops, os.path.join(work, f"grid-{name}.osm"), pbf)
    ferro = child([FERROBUS, pbf, gtfs, day.strftime("%Y%m%d"), str(ROUNDS - 1)],
                  [((a[1], a[2]), (b[1], b[2]), DEPARTURE) for a, b in queries])

    clock = lambda t: "-" if t is None else f"{t // 3600:02d}:{t % 3600 // 60:02d}:{t % 60:02d}"
    for (a, b), m, p, (r, _), (f, _) in zip(queries, mine, points, raptor["answers"], ferro["answers"]):
        print(f"  {a[0]} -> {b[0]}: plan {clock(m)}, as points {clock(p)}, pyraptor {clock(r)}, ferrobus {clock(f)}", file=sys.stderr)
    ms = lambda seconds: f"{seconds * 1000:.1f} ms"
    median = lambda answers: statistics.median(t for _, t in answers)
    answered = lambda arrivals: sum(a is not None for a in arrivals)
    raptor_arrivals = [a for a, _ in raptor["answers"]]
    ferro_arrivals = [a for a, _ in ferro["answers"]]
    print(f"| {name}, {count} queries | load | query | answered | arrival against `plan` stop to stop | against `plan` point to point |")
    print("|---|---|---|---|---|---|")
    print(f"| `transit-query batch`, `plan` stop to stop | {ms(our_load)} (process start to first answer) | {ms(our_query)} (mean) | "
          f"{answered(mine)} | | |")
    print(f"| `transit-query batch`, `plan` point to point | {ms(points_load)} | {ms(points_query)} (mean) | {answered(points)} | | |")
    print(f"| pyraptor 1.3.10 | {raptor['load']:.1f} s | {ms(median(raptor['answers']))} (median) | {answered(raptor_arrivals)} | "
          f"{compare(mine, raptor_arrivals)} | {compare(points, raptor_arrivals)} |")
    print(f"| ferrobus 0.2.1 ({nodes:,}-node street grid) | {ferro['load']:.1f} s | {ms(median(ferro['answers']))} (median) | "
          f"{answered(ferro_arrivals)} | {compare(mine, ferro_arrivals)} | {compare(points, ferro_arrivals)} |")

if __name__ == "__main__":
    main()
