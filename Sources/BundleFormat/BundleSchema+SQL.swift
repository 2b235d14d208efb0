// swift-format-ignore-file
// Generated from schemas/bundle.sql by `make schema`. Do not edit.
extension BundleSchema {
    package static let sql = #"""
-- Transit bundle schema, version 9 (PRAGMA user_version; PRAGMA application_id is
-- 0x54524E42, "TRNB", in every bundle).
-- Written by gtfs-compile, read by TransitRuntime. Every text id lives once (stops,
-- dict_route, trip_blocks, service_blocks, agencies); all other tables link by integer keys. Integer ids are
-- given by feed_id, then in byte order of the text id (stops: along a Hilbert curve over
-- the map, then by text), except with --base: what the base bundle has keeps its id
-- there, and what is new takes ids after the base's largest. Readers order by text, not
-- by id.
-- Dates are INTEGER YYYYMMDD; times are GTFS seconds from noon minus 12 h.
-- A table without rows is left out, with its indexes, unless a reader needs it
-- (BundleSchema.optionalTables: trip_names, frequencies, transfers, the fare, station,
-- translation and attribution tables, and the city tables of a bundle compiled without
-- cities); a reader takes a missing one for an empty one. The planner's tables are
-- always there (schema 9).

CREATE TABLE metadata (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE feeds (
  fid INTEGER PRIMARY KEY,
  feed_id TEXT NOT NULL UNIQUE,
  timezone TEXT NOT NULL,
  feed_version TEXT,
  -- feed_info.txt: publisher, languages, contacts.
  publisher_name TEXT,
  publisher_url TEXT,
  feed_lang TEXT,
  default_lang TEXT,
  contact_email TEXT,
  contact_url TEXT,
  -- Declared coverage: feed_info dates, calendar ranges and calendar_dates together.
  first_service_date INTEGER,
  last_service_date INTEGER,
  -- The last service day on which any trip runs.
  last_trip_date INTEGER,
  max_time_secs INTEGER NOT NULL,
  has_frequencies INTEGER NOT NULL,
  sha256 TEXT NOT NULL
);

CREATE TABLE agencies (
  aid INTEGER PRIMARY KEY,
  fid INTEGER NOT NULL,
  agency_id TEXT NOT NULL,
  name TEXT NOT NULL,
  url TEXT,
  timezone TEXT NOT NULL,
  lang TEXT,
  phone TEXT
);

CREATE TABLE dict_route (
  fid INTEGER NOT NULL,
  route_id TEXT NOT NULL,
  rid INTEGER NOT NULL,
  PRIMARY KEY (fid, route_id)
) WITHOUT ROWID;

CREATE UNIQUE INDEX dict_route_by_rid ON dict_route (rid);

-- Service text ids and fids by sv, 32 svs to a row from 1 + a multiple of 32, deflated
-- (ServiceBlock). Only the compiler reads them (--base keeps svs stable; reports name
-- services): 14,141 ids of 38 bytes take 0.15 MB this way, against 0.7 MB as a dictionary.
CREATE TABLE service_blocks (
  first_sv INTEGER PRIMARY KEY,
  entries BLOB NOT NULL
);

-- A stop, with its text id (looked up through stop_ids) and its coordinates in units of
-- 1e-7 degree (about 1 cm; four bytes each where a REAL takes eight).
CREATE TABLE stops (
  sid INTEGER PRIMARY KEY,
  fid INTEGER NOT NULL,
  stop_id TEXT NOT NULL,
  name TEXT NOT NULL,
  code TEXT,
  lat_e7 INTEGER,
  lon_e7 INTEGER,
  location_type INTEGER NOT NULL,
  parent_sid INTEGER,
  platform_code TEXT,
  wheelchair_boarding INTEGER NOT NULL
);

CREATE INDEX stops_by_parent ON stops (parent_sid) WHERE parent_sid IS NOT NULL;

-- The spatial index: each stop's cell in a grid of 0.008 by 0.002 degree numbered row by
-- row (StopGrid), an expression over the coordinates, so it costs no column. A search
-- reads one range of cells per grid row of its box. About 13 bytes a stop, against 50 for
-- an R*Tree.
CREATE INDEX stops_by_cell ON stops ((lat_e7 / 80000) * 180001 + lon_e7 / 20000 + 90000)
  WHERE lat_e7 IS NOT NULL AND lon_e7 IS NOT NULL;

-- Lookup by text: each feed's stops in byte order of their ids, in groups (IDGroup: their
-- sids). The row with the greatest first_stop_id not after an id holds it, if any row
-- does; its sids' text is in stops. About 1 byte a stop, where an index on stop_id would
-- hold each id a second time.
CREATE TABLE stop_ids (
  fid INTEGER NOT NULL,
  first_stop_id TEXT NOT NULL,
  sids BLOB NOT NULL,
  PRIMARY KEY (fid, first_stop_id)
) WITHOUT ROWID;

-- Names (and the words of StopSearchText) for search; contentless, without per-row sizes
-- (nothing ranks by them), with an index of two-letter prefixes (a three-letter one cost
-- 8 bytes a stop and no measurable speed).
CREATE VIRTUAL TABLE stops_fts USING fts5(name, content='', tokenize='unicode61 remove_diacritics 2', prefix='2', columnsize=0);

CREATE TABLE routes (
  rid INTEGER PRIMARY KEY,
  fid INTEGER NOT NULL,
  aid INTEGER,
  short_name TEXT,
  long_name TEXT,
  route_type INTEGER NOT NULL,
  color TEXT,
  text_color TEXT
);

CREATE TABLE headsigns (
  hid INTEGER PRIMARY KEY,
  text TEXT NOT NULL
);

-- A pattern: stops visited in order with their offsets, and the trips that share them.
-- Both lists are packed into BLOBs of varints (formats in Sources/BundleFormat/Packed/):
-- on cts-strasbourg, 51,909 pattern stops take 0.2 MB this way, against 1.7 MB as rows
-- with a by-stop index, and 23,635 trips 0.1 MB, against 0.9 MB as rows with an index.
-- A departures query reads one row per pattern at the stop, then keeps it decoded.
CREATE TABLE patterns (
  pid INTEGER PRIMARY KEY,
  fid INTEGER NOT NULL,
  -- PatternStopsBlob: per stop sid, stop_sequence, offsets, pickup/drop-off, headsign.
  stops BLOB NOT NULL,
  -- PatternTripsBlob: per trip tid, start time, sv, rid, headsign, direction, wheelchair,
  -- shape, bikes, regular trips by start time first, then frequency templates.
  trips BLOB NOT NULL
);

-- The journey planner's routes (RoutePlan in Sources/BundleFormat/Planner/): each stop
-- sequence once, and each route's trips in the order a search scans them, so the
-- runtime reads its network instead of grouping and sorting every trip on the first
-- journey. Written by the compiler from the patterns; a bundle without them (an earlier
-- compiler's) still plans journeys, working the routes out on first use.
CREATE TABLE planner_sequences (
  qid INTEGER PRIMARY KEY,
  fid INTEGER NOT NULL,
  -- PlannerRoutesBlob: per stop the sid and whether it can be boarded, alighted.
  stops BLOB NOT NULL
);

CREATE TABLE planner_routes (
  prid INTEGER PRIMARY KEY,
  qid INTEGER NOT NULL,
  sv INTEGER NOT NULL,
  -- PlannerRoutesBlob: per trip its start, tid, pattern and accessibility, in order at
  -- every stop; then its frequency templates.
  trips BLOB NOT NULL
);

-- The journey planner's walks between stops (PlannerWalksBlob): which served stops are
-- at most within_metres apart, so the runtime measures those pairs instead of searching
-- for them on the first journey. Optional like the routes above; a query with a longer
-- transfer distance, or a bundle without them, finds its walks from the coordinates.
CREATE TABLE planner_walks (
  first_sid INTEGER PRIMARY KEY,
  within_metres INTEGER NOT NULL,
  -- PlannerWalksBlob: per stop from first_sid on, the sids above it within the distance.
  walks BLOB NOT NULL
);

-- The patterns each route's trips follow (IDListBlob: pids ascending), for a route's
-- stops and lines and the routes at a stop.
CREATE TABLE route_patterns (
  rid INTEGER PRIMARY KEY,
  pids BLOB NOT NULL
);

-- shapes.txt, the shapes some kept trip follows, as chains of edges (ShapeEdgesBlob): a
-- stretch many shapes run along, either way, is one edge (ShapeNetwork). A trip names its
-- shape in patterns.trips.
CREATE TABLE shapes (
  shp INTEGER PRIMARY KEY,
  fid INTEGER NOT NULL,
  shape_id TEXT NOT NULL,
  edges BLOB NOT NULL
);

-- Edges by eid, 32 to a row from 1 + a multiple of 32: each edge's points in order
-- (ShapeBlob: Rice-coded steps of 1e-6 degree), thinned so that every point of the input
-- lies within 0.85 m (+ 8 cm of rounding) of the kept line (ShapeSimplifier). wmata's
-- 173,486 shape points take 0.03 MB this way, against 0.7 MB as one line per shape.
CREATE TABLE shape_edges (
  first_eid INTEGER PRIMARY KEY,
  points BLOB NOT NULL
);

-- Where each stop appears: StopPatternsBlob, (pid, idx) pairs.
CREATE TABLE stop_patterns (
  sid INTEGER PRIMARY KEY,
  entries BLOB NOT NULL
);

-- Trip text ids by tid, 64 tids to a row from 1 + a multiple of 64 (TripBlock): each id is
-- coded as the prefix and suffix it shares with one of the 16 ids before it plus the bytes
-- between, and a tid no trip has (removed in a later version) is a one-byte gap. The ids
-- of cts-strasbourg take 0.17 MB this way, against 1.9 MB in a dictionary table and its
-- index. Departures read the block of each trip they name.
CREATE TABLE trip_blocks (
  first_tid INTEGER PRIMARY KEY,
  entries BLOB NOT NULL
);

-- Lookup by text: each feed's trips in byte order of their ids, 64 to a row (TripIDGroup:
-- their tids). The row with the greatest first_trip_id not after an id holds it, if any
-- row does; its tids' text is in trip_blocks. About 1 byte a trip.
CREATE TABLE trip_ids (
  fid INTEGER NOT NULL,
  first_trip_id TEXT NOT NULL,
  tids BLOB NOT NULL,
  PRIMARY KEY (fid, first_trip_id)
) WITHOUT ROWID;

-- trip_short_name (train numbers), for the trips that have one.
CREATE TABLE trip_names (
  tid INTEGER PRIMARY KEY,
  short_name TEXT NOT NULL
);

CREATE TABLE frequencies (
  tid INTEGER NOT NULL,
  start_time_secs INTEGER NOT NULL,
  end_time_secs INTEGER NOT NULL,
  headway_secs INTEGER NOT NULL,
  exact_times INTEGER NOT NULL,
  PRIMARY KEY (tid, start_time_secs)
) WITHOUT ROWID;

-- transfers.txt's stop-to-stop rows (types 0-3 and 5); rows naming routes or trips are
-- not kept yet.
CREATE TABLE transfers (
  from_sid INTEGER NOT NULL,
  to_sid INTEGER NOT NULL,
  transfer_type INTEGER NOT NULL,
  min_transfer_time INTEGER,
  PRIMARY KEY (from_sid, to_sid)
) WITHOUT ROWID;

-- GTFS fares v1 (schema 9): each feed's fare_attributes.txt and fare_rules.txt packed in
-- one row (FareClassesBlob: the fare classes in byte order of fare_id, each with its price
-- in units of its currency's `exponent`, and its rules in the file's order, zones as
-- numbers of fare_zone_names).
CREATE TABLE fare_classes (
  fid INTEGER PRIMARY KEY,
  fares BLOB NOT NULL
);

-- The currencies of fare_classes and fare_products: an amount of `units` is units x
-- 10^-exponent of `code` (the exponent is the most decimal places the bundle's amounts in
-- it were written with).
CREATE TABLE currencies (
  currency INTEGER PRIMARY KEY,
  code TEXT NOT NULL,
  exponent INTEGER NOT NULL
);

-- The zone_id values fare rules name, numbered across the bundle in feed order and byte
-- order; fare_zones: each stop's, only for feeds whose fare rules name zones.
CREATE TABLE fare_zone_names (
  zone INTEGER PRIMARY KEY,
  fid INTEGER NOT NULL,
  zone_id TEXT NOT NULL
);

CREATE TABLE fare_zones (
  sid INTEGER PRIMARY KEY,
  zone INTEGER NOT NULL
);

-- GTFS fares v2, only for feeds with fare_leg_rules.txt rows. Every id of the files
-- (products, rider categories, media, leg groups, networks, areas, timeframe groups) is a
-- number of fare_ids (schema 9: the same text of a feed once, numbered across the bundle
-- in feed order and byte order); amounts are integers of units of their currency
-- (`currencies`, negative for a discount). Rows are numbered across the bundle in the
-- feeds' order.
CREATE TABLE fare_ids (
  id INTEGER PRIMARY KEY,
  fid INTEGER NOT NULL,
  text TEXT NOT NULL
);

CREATE TABLE fare_media (
  medium INTEGER PRIMARY KEY,
  fid INTEGER NOT NULL,
  fare_media_id INTEGER NOT NULL,
  fare_media_name TEXT,
  fare_media_type INTEGER NOT NULL
);

CREATE TABLE rider_categories (
  category INTEGER PRIMARY KEY,
  fid INTEGER NOT NULL,
  rider_category_id INTEGER NOT NULL,
  rider_category_name TEXT NOT NULL,
  is_default_fare_category INTEGER NOT NULL,
  eligibility_url TEXT
);

-- One row per product, rider category (NULL: any) and fare medium (NULL: unknown).
CREATE TABLE fare_products (
  product INTEGER PRIMARY KEY,
  fid INTEGER NOT NULL,
  fare_product_id INTEGER NOT NULL,
  fare_product_name TEXT,
  rider_category_id INTEGER,
  fare_media_id INTEGER,
  amount INTEGER NOT NULL,
  currency INTEGER NOT NULL
);

-- rule_priority NULL: the feed's file has no rule_priority column (empty fields then match
-- what no other rule names); a number: the column exists (an empty value is 0).
CREATE TABLE fare_leg_rules (
  rule INTEGER PRIMARY KEY,
  fid INTEGER NOT NULL,
  leg_group_id INTEGER,
  network_id INTEGER,
  from_area_id INTEGER,
  to_area_id INTEGER,
  from_timeframe_group_id INTEGER,
  to_timeframe_group_id INTEGER,
  fare_product_id INTEGER NOT NULL,
  rule_priority INTEGER
);

CREATE TABLE fare_transfer_rules (
  rule INTEGER PRIMARY KEY,
  fid INTEGER NOT NULL,
  from_leg_group_id INTEGER,
  to_leg_group_id INTEGER,
  transfer_count INTEGER,
  duration_limit INTEGER,
  duration_limit_type INTEGER,
  fare_transfer_type INTEGER NOT NULL,
  fare_product_id INTEGER
);

-- timeframes.txt: seconds after local midnight (start included, end excluded, 0-86400) on
-- the days service sv runs.
CREATE TABLE timeframes (
  timeframe INTEGER PRIMARY KEY,
  fid INTEGER NOT NULL,
  timeframe_group_id INTEGER NOT NULL,
  start_time INTEGER NOT NULL,
  end_time INTEGER NOT NULL,
  sv INTEGER NOT NULL
);

-- stop_areas.txt resolved: each stop's areas (a platform without its own takes its
-- station's, a boarding area its platform's).
CREATE TABLE stop_areas (
  sid INTEGER NOT NULL,
  area_id INTEGER NOT NULL,
  PRIMARY KEY (sid, area_id)
) WITHOUT ROWID;

-- Each route's network (routes.txt network_id or route_networks.txt).
CREATE TABLE route_networks (
  rid INTEGER PRIMARY KEY,
  network_id INTEGER NOT NULL
);

-- translations.txt, resolved: the name `field` (1 stop name by sid, 2 route short name and 3
-- route long name by rid, 4 headsign by hid, 5 agency name by aid) of `record` in
-- `language` (a BCP 47 tag, lowercased). Rows by field_value are written for every record
-- with that value; a row by record_id wins over them.
CREATE TABLE translations (
  field INTEGER NOT NULL,
  record INTEGER NOT NULL,
  language TEXT NOT NULL,
  translation TEXT NOT NULL,
  PRIMARY KEY (field, record, language)
) WITHOUT ROWID;

-- pathways.txt between sids in the feed's order (pathway ids are not kept): mode 1-7,
-- traversal_time in seconds, length in decimetres, stair_count (negative: down). A boarding
-- area's pathways stand for its platform's.
CREATE TABLE pathways (
  pathway INTEGER PRIMARY KEY,
  from_sid INTEGER NOT NULL,
  to_sid INTEGER NOT NULL,
  mode INTEGER NOT NULL,
  is_bidirectional INTEGER NOT NULL,
  traversal_time INTEGER,
  length_dm INTEGER,
  stair_count INTEGER
);

-- levels.txt: a station's floors (level_index: 0 the street, negative below), numbered
-- across the bundle; stop_levels: each stop's, only for stops that name one.
CREATE TABLE levels (
  level INTEGER PRIMARY KEY,
  fid INTEGER NOT NULL,
  level_id TEXT NOT NULL,
  level_index REAL NOT NULL,
  level_name TEXT
);

CREATE TABLE stop_levels (
  sid INTEGER PRIMARY KEY,
  level INTEGER NOT NULL
);

-- attributions.txt: who to credit, for the feed or one agency, route or trip.
CREATE TABLE attributions (
  attribution INTEGER PRIMARY KEY,
  fid INTEGER NOT NULL,
  organization_name TEXT NOT NULL,
  is_producer INTEGER NOT NULL,
  is_operator INTEGER NOT NULL,
  is_authority INTEGER NOT NULL,
  aid INTEGER,
  rid INTEGER,
  trip_id TEXT,
  url TEXT,
  email TEXT,
  phone TEXT
);

CREATE TABLE calendar (
  sv INTEGER PRIMARY KEY,
  days INTEGER NOT NULL,
  start_date INTEGER NOT NULL,
  end_date INTEGER NOT NULL
);

-- calendar_dates.txt, one row per service that has exceptions: the dates added
-- (exception_type 1) and removed (2), each a DateSetBlob (a bitmap over the set's span or
-- the dates as gaps, whichever is smaller). A row per date and service cost ~14 bytes; a
-- year of a calendar_dates-only service now costs ~50 bytes in all.
CREATE TABLE service_dates (
  sv INTEGER PRIMARY KEY,
  added BLOB NOT NULL,
  removed BLOB NOT NULL
);

-- Cities: a catalogue compiled with --cities (empty when none was given).

CREATE TABLE cities (
  cid INTEGER PRIMARY KEY,
  city_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  country TEXT NOT NULL,
  country_name TEXT,
  lat REAL NOT NULL,
  lng REAL NOT NULL,
  timezone TEXT,
  population INTEGER,
  description TEXT,
  cost_of_living REAL,
  internet_speed REAL,
  safety_rating REAL,
  climate TEXT
);

CREATE INDEX cities_by_country ON cities (country, population DESC, cid);

CREATE INDEX cities_by_population ON cities (population DESC, cid);

-- A city's alternate names, in catalogue order, separated by newlines.
CREATE TABLE city_alternate_names (
  cid INTEGER PRIMARY KEY,
  names TEXT NOT NULL
);

CREATE TABLE categories (
  cat INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);

CREATE TABLE city_categories (
  cid INTEGER NOT NULL,
  cat INTEGER NOT NULL,
  PRIMARY KEY (cid, cat)
) WITHOUT ROWID;

CREATE INDEX city_categories_by_category ON city_categories (cat);

CREATE TABLE city_attractions (
  cid INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  attraction_id TEXT,
  name TEXT NOT NULL,
  description TEXT,
  lat REAL,
  lng REAL,
  PRIMARY KEY (cid, idx)
) WITHOUT ROWID;

CREATE TABLE city_images (
  cid INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  image_id TEXT,
  url TEXT NOT NULL,
  type TEXT NOT NULL,
  width INTEGER,
  height INTEGER,
  size INTEGER,
  PRIMARY KEY (cid, idx)
) WITHOUT ROWID;

CREATE TABLE city_related (
  cid INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  related_cid INTEGER NOT NULL,
  PRIMARY KEY (cid, idx)
) WITHOUT ROWID;

CREATE TABLE city_feeds (
  cid INTEGER NOT NULL,
  fid INTEGER NOT NULL,
  PRIMARY KEY (cid, fid)
) WITHOUT ROWID;

CREATE VIRTUAL TABLE cities_fts USING fts5(name, alternate_names, country_name, content='', detail=none, columnsize=0, tokenize='unicode61 remove_diacritics 2');

-- Spatial index for nearest-city queries: one-degree cells,
-- cell = floor(lat + 90) * 360 + floor(lng + 180).
CREATE TABLE city_cells (
  cell INTEGER NOT NULL,
  cid INTEGER NOT NULL,
  PRIMARY KEY (cell, cid)
) WITHOUT ROWID;
"""#
}
