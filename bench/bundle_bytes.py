"""Where a bundle's bytes go, for `make bench`: bytes per stop (stops, their id lookup,
the spatial and full-text indexes), bytes per calendar_dates.txt row (calendar, the date
sets and the service ids), bytes per service id, and what shapes add (their tables
against the rest of the bundle), read with SQLite's dbstat; the feed's calendar_dates rows
are counted in the zip. Tables of older schemas (dict_stop, stops_rtree, dict_service)
count too, so an old bundle can be compared with a new one.

usage: python3 bench/bundle_bytes.py BUNDLE FEED.zip
"""
import sqlite3
import sys
import zipfile

STOP_TABLES = ("stops", "stops_by_parent", "stops_by_cell", "stop_ids", "dict_stop", "dict_stop_by_sid")
STOP_PREFIXES = ("stops_rtree", "stops_fts")
SERVICE_ID_TABLES = ("service_blocks", "dict_service")
CALENDAR_TABLES = ("calendar", "calendar_dates", "service_dates") + SERVICE_ID_TABLES
SHAPE_TABLES = ("shapes", "shape_edges")


def main():
    bundle, feed = sys.argv[1], sys.argv[2]
    db = sqlite3.connect(f"file:{bundle}?mode=ro", uri=True)
    sizes = dict(db.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"))
    stops = db.execute("SELECT count(*) FROM stops").fetchone()[0]
    stop_bytes = sum(v for k, v in sizes.items() if k in STOP_TABLES or k.startswith(STOP_PREFIXES))
    calendar_bytes = sum(sizes.get(k, 0) for k in CALENDAR_TABLES)
    service_id_bytes = sum(sizes.get(k, 0) for k in SERVICE_ID_TABLES)
    # Services with a weekly calendar or dates (schema 5); older schemas list them in dict_service.
    has = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    services_sql = (
        "SELECT count(*) FROM dict_service" if "dict_service" in has
        else "SELECT count(*) FROM (SELECT sv FROM calendar UNION SELECT sv FROM service_dates)")
    services = db.execute(services_sql).fetchone()[0]
    rows = 0
    with zipfile.ZipFile(feed) as archive:
        for name in archive.namelist():
            if name.split("/")[-1] == "calendar_dates.txt":
                with archive.open(name) as handle:
                    rows = max(0, sum(1 for line in handle if line.strip()) - 1)
    per_stop = stop_bytes / stops if stops else 0
    per_row = f"{calendar_bytes / rows:6.2f} B/calendar_dates row ({rows} rows)" if rows else "no calendar_dates rows"
    per_service = service_id_bytes / services if services else 0
    shape_bytes = sum(sizes.get(k, 0) for k in SHAPE_TABLES)
    rest = sum(sizes.values()) - shape_bytes
    shapes = f"shapes {shape_bytes:7d} bytes = +{100 * shape_bytes / rest:4.1f} %" if shape_bytes else "no shapes"
    print(f"stops {stops:6d}: {stop_bytes:8d} bytes = {per_stop:6.1f} B/stop | calendar {calendar_bytes:8d} bytes, {per_row}"
          f" | service ids {service_id_bytes:7d} bytes = {per_service:5.1f} B/service ({services}) | {shapes}")


main()
