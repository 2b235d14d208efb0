"""Writes a feed whose calendar is all calendar_dates.txt, shaped like the feeds that spend
most of a bundle on it: SERVICES services over a year, each running on a random subset of
days (weekdays of some weeks, a few weekends), one short trip each. Seeded, so the same
arguments give the same feed.

usage: python3 bench/calendar_feed.py OUT.zip [SERVICES] [SEED]
"""
import datetime
import io
import random
import sys
import zipfile


def main():
    out = sys.argv[1]
    services = int(sys.argv[2]) if len(sys.argv) > 2 else 1918
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 7)
    start = datetime.date(2026, 1, 1)
    files = {
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.org,Asia/Tokyo\n",
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,35.0,139.0\nS2,Two,35.01,139.01\n",
        "routes.txt": "route_id,route_short_name,route_type\nR,1,3\n",
    }
    trips = ["route_id,service_id,trip_id"]
    times = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
    dates = ["service_id,date,exception_type"]
    for s in range(services):
        # Long ids, as real feeds write them.
        service = f"SERVICE_{s:05d}_WEEKDAY_PATTERN_{rng.randrange(10**8):08d}"
        weekdays = rng.random() < 0.7
        share = rng.uniform(0.2, 0.6)
        for d in range(365):
            day = start + datetime.timedelta(days=d)
            if (day.weekday() < 5) == weekdays and rng.random() < share * 2:
                dates.append(f"{service},{day:%Y%m%d},1")
        trip = f"T{s}"
        trips.append(f"R,{service},{trip}")
        minute = rng.randrange(6 * 60, 22 * 60)
        times.append(f"{trip},{minute // 60:02d}:{minute % 60:02d}:00,{minute // 60:02d}:{minute % 60:02d}:00,S1,1")
        times.append(f"{trip},{(minute + 10) // 60:02d}:{(minute + 10) % 60:02d}:00,{(minute + 10) // 60:02d}:{(minute + 10) % 60:02d}:00,S2,2")
    files["trips.txt"] = "\n".join(trips) + "\n"
    files["stop_times.txt"] = "\n".join(times) + "\n"
    files["calendar_dates.txt"] = "\n".join(dates) + "\n"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    print(f"{out}: {services} services, {len(dates) - 1} calendar_dates rows")


main()
