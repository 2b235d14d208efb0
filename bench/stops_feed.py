"""Writes a feed shaped like the ones whose bundles spend most on stops: STOPS stops (the
two directions of a street stop share its name, as in most feeds; ids of 6 to 12 bytes)
around five places on both sides of the equator and of the prime meridian, and 15-stop
trips adding up to about 24,705 stop times. Shaped after a real feed of 8,587 stops whose
bundle took 2.0 MB in schema 4 (this one: 1.95 MB). Seeded, so the same arguments give
the same feed.

usage: python3 bench/stops_feed.py OUT.zip [STOPS] [SEED]
"""
import io
import random
import sys
import zipfile

WORDS = ["Gare", "Place", "Rue", "Avenue", "Centre", "Hôpital", "Église", "Mairie", "Pont", "Collège", "Parc", "Marché"]
STREETS = ["Victor Hugo", "de la République", "Jean Jaurès", "des Lilas", "du Moulin", "Pasteur", "de l'Europe", "Saint-Pierre"]
CENTRES = [(48.58, 7.75), (-41.44, 147.13), (0.004, -0.003), (-33.45, -70.66), (64.14, -21.94)]


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 8587
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 11)
    stops = ["stop_id,stop_name,stop_lat,stop_lon"]
    ids = []
    for i in range(count):
        lat, lon = CENTRES[i % len(CENTRES)]
        lat += rng.randint(-1_000_000, 1_000_000) / 1e7
        lon += rng.randint(-1_500_000, 1_500_000) / 1e7
        stop_id = f"OCE{870_000 + i * 7}" if i % 3 == 0 else str(100_000 + i) if i % 3 == 1 else f"S{i}_{i % 2}"
        street = i // 2
        name = f"{WORDS[street % len(WORDS)]} {STREETS[(street // 12) % len(STREETS)]}" + (f" {street // 96}" if street >= 96 else "")
        ids.append(stop_id)
        stops.append(f'{stop_id},"{name}",{lat:.7f},{lon:.7f}')
    trips = ["route_id,service_id,trip_id"]
    times = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
    for t in range(24_705 // 15):
        trips.append(f"R,D,T{t}")
        for s in range(15):
            clock = f"{6 + t % 16:02d}:{s * 2:02d}:00"
            times.append(f"T{t},{clock},{clock},{ids[(t * 7 + s * 131) % count]},{s + 1}")
    files = {
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.org,Europe/Paris\n",
        "routes.txt": "route_id,route_short_name,route_type\nR,1,3\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
        "D,1,1,1,1,1,1,1,20260101,20261231\n",
        "stops.txt": "\n".join(stops) + "\n",
        "trips.txt": "\n".join(trips) + "\n",
        "stop_times.txt": "\n".join(times) + "\n",
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    with open(out, "wb") as handle:
        handle.write(buffer.getvalue())
    print(f"{out}: {count} stops, {len(times) - 1} stop times")


main()
