"""Adds a GTFS fares v2 set to an unpacked feed (its routes split over two networks, its
stops over three areas, peak and off-peak timeframes on its services, leg rules with
rule_priority, transfer rules of every type and limit): the bundle the `bundle-v2` fuzz
target edits, so that crafted values reach the fares v2 pricer.

Usage: python3 Fuzz/add_fares_v2.py FEED_FOLDER
"""
import csv
import os
import sys

folder = sys.argv[1]


def ids(name, column):
    with open(os.path.join(folder, name), encoding="utf-8-sig", newline="") as f:
        return [row[column] for row in csv.DictReader(f)]


def write(name, header, rows):
    with open(os.path.join(folder, name), "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(header)
        out.writerows(rows)


routes = ids("routes.txt", "route_id")
stops = ids("stops.txt", "stop_id")
services = sorted(set(ids("calendar.txt", "service_id")))
write("fare_media.txt", ["fare_media_id", "fare_media_name", "fare_media_type"], [["card", "Card", 2], ["paper", "Ticket", 1]])
write("rider_categories.txt", ["rider_category_id", "rider_category_name", "is_default_fare_category"], [["adult", "Adult", 1], ["youth", "Youth", 0]])
write("networks.txt", ["network_id", "network_name"], [["rail", "Rail"], ["local", "Local"]])
write("route_networks.txt", ["network_id", "route_id"], [["rail" if i % 2 else "local", r] for i, r in enumerate(routes)])
write("areas.txt", ["area_id", "area_name"], [[f"a{i}", f"Area {i}"] for i in range(3)])
write("stop_areas.txt", ["area_id", "stop_id"], [[f"a{i % 3}", s] for i, s in enumerate(stops)])
write("timeframes.txt", ["timeframe_group_id", "start_time", "end_time", "service_id"],
      [["peak", "07:00:00", "09:30:00", s] for s in services] + [["off", "09:30:00", "24:00:00", s] for s in services])
products = [["single", "Single", "adult", "card", "2.50"], ["single", "Single", "youth", "card", "1.25"],
            ["single", "Single", "adult", "paper", "2.75"], ["zone", "Zone", "", "", "3.10"], ["peak", "Peak", "", "", "4.00"],
            ["transfer", "Transfer", "", "", "0.50"], ["discount", "Discount", "", "", "-0.25"]]
write("fare_products.txt", ["fare_product_id", "fare_product_name", "rider_category_id", "fare_media_id", "amount", "currency"],
      [p + ["USD"] for p in products])
write("fare_leg_rules.txt",
      ["leg_group_id", "network_id", "from_area_id", "to_area_id", "from_timeframe_group_id", "to_timeframe_group_id", "fare_product_id", "rule_priority"],
      [["g_rail", "rail", "a0", "a1", "", "", "zone", 2], ["g_rail", "rail", "", "", "peak", "", "peak", 1],
       ["g_rail", "rail", "", "", "", "", "single", 0], ["g_local", "local", "", "", "", "off", "single", 0],
       ["g_local", "", "a2", "", "", "", "zone", 1]])
write("fare_transfer_rules.txt",
      ["from_leg_group_id", "to_leg_group_id", "transfer_count", "duration_limit", "duration_limit_type", "fare_transfer_type", "fare_product_id"],
      [["g_rail", "g_rail", -1, 5400, 1, 0, ""], ["g_rail", "g_local", "", 3600, 2, 1, "transfer"],
       ["g_local", "g_rail", "", "", "", 2, "discount"], ["g_local", "g_local", 2, 7200, 0, 0, "transfer"]])
