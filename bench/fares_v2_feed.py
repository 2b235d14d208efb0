#!/usr/bin/env python3
"""Writes gtfs-samples/metro with a large fares v2 set beside it, for the size of the fares
v2 tables: 1,000 products (two rider categories each), 1,000 leg rules over 20 areas, 100
transfer rules.

Usage: python3 bench/fares_v2_feed.py OUT_FOLDER
"""
import csv
import os
import shutil
import sys

out = sys.argv[1]
shutil.rmtree(out, ignore_errors=True)
shutil.copytree(os.path.join(os.path.dirname(__file__), "..", "gtfs-samples", "metro"), out)
for name in ("fare_attributes.txt", "fare_rules.txt"):
    if os.path.exists(os.path.join(out, name)):
        os.remove(os.path.join(out, name))
with open(os.path.join(out, "stops.txt"), encoding="utf-8-sig", newline="") as f:
    stops = [row["stop_id"] for row in csv.DictReader(f)]


def write(name, header, rows):
    with open(os.path.join(out, name), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


write("rider_categories.txt", ["rider_category_id", "rider_category_name", "is_default_fare_category"],
      [["adult_rider", "Adult", 1], ["reduced_rider", "Reduced", 0]])
write("fare_media.txt", ["fare_media_id", "fare_media_name", "fare_media_type"], [["city_card", "City card", 2]])
write("fare_products.txt", ["fare_product_id", "fare_product_name", "rider_category_id", "fare_media_id", "amount", "currency"],
      [[f"zone_ticket_{i:04d}", f"Ticket {i}", c, "city_card", f"{2 + i % 50}.{(i * 7) % 100:02d}", "CHF"]
       for i in range(500) for c in ("adult_rider", "reduced_rider")])
areas = [f"fare_area_{i:02d}" for i in range(20)]
write("areas.txt", ["area_id", "area_name"], [[a, a] for a in areas])
write("stop_areas.txt", ["area_id", "stop_id"], [[areas[i % 20], s] for i, s in enumerate(stops)])
write("fare_leg_rules.txt", ["leg_group_id", "from_area_id", "to_area_id", "fare_product_id"],
      [[f"leg_group_{i % 100:03d}", areas[i % 20], areas[(i // 20) % 20], f"zone_ticket_{i % 500:04d}"] for i in range(1000)])
write("fare_transfer_rules.txt", ["from_leg_group_id", "to_leg_group_id", "transfer_count", "duration_limit",
                                  "duration_limit_type", "fare_transfer_type", "fare_product_id"],
      [[f"leg_group_{i:03d}", f"leg_group_{(i + 1) % 100:03d}", 1, 5400, 1, 0, f"zone_ticket_{i:04d}"] for i in range(100)])
