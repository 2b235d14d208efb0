#!/usr/bin/env bash
# The store's targets (docs/performance.md, "Offline store"): download of a ~50 MB bundle from nginx over
# loopback against curl on the same server (as is, and gzip on the wire), SHA-256 verification speed, start-up with 50 bundles
# and their 250 photos.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release}
SHARED=${SHARED:-../shared}
WORK=${BENCH_DIR:-/tmp/transit-bench}
SITE="$WORK/store-site"
mkdir -p "$SITE"

if [ -f "$SHARED/feeds/cts-strasbourg.zip" ]; then
  [ -f "$WORK/cts-x50.zip" ] || python3 "$SHARED/tools/scale_feed.py" "$SHARED/feeds/cts-strasbourg.zip" "$WORK/cts-x50.zip" 50
  # Compiled again when the compiler is newer (a bundle of an older schema is refused).
  [ "$SITE/cts-x50.db" -nt "$BIN/gtfs-compile" ] || "$BIN/gtfs-compile" "$WORK/cts-x50.zip" -o "$SITE/cts-x50.db" > /dev/null 2>&1
  BIG="$SITE/cts-x50.db"
else
  echo "(no $SHARED: the download is measured on the samples' small bundle)"
  "$BIN/gtfs-compile" gtfs-samples/metro gtfs-samples/valley -o "$SITE/demo.db" > /dev/null 2>&1
  BIG="$SITE/demo.db"
fi
NAME=$(basename "$BIG" .db)
BYTES=$(stat -c %s "$BIG")
"$BIN/gtfs-compile" manifest "$BIG" -o "$SITE/manifest.json" > /dev/null

# Served by Debian's nginx (make deps installs it): /files/ as is, /gzip/ precompressed
# (gzip_static, the .gz made with gzip -6 as the manifest's gzip_bytes are).
[ -f "$SITE/$NAME.db.gz" ] && [ "$SITE/$NAME.db.gz" -nt "$BIG" ] || gzip -6 -k -n -f "$BIG"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
NGINX_DIR="$WORK/nginx"
rm -rf "$NGINX_DIR" && mkdir -p "$NGINX_DIR"
cat > "$NGINX_DIR/nginx.conf" <<CONF
daemon off; master_process off; worker_processes 1; pid $NGINX_DIR/nginx.pid; error_log $NGINX_DIR/error.log;
events { worker_connections 64; }
http {
  default_type application/octet-stream; sendfile on;
  log_format wire '\$request_uri \$status \$body_bytes_sent';
  access_log $NGINX_DIR/access.log wire;
  client_body_temp_path $NGINX_DIR/b; proxy_temp_path $NGINX_DIR/p; fastcgi_temp_path $NGINX_DIR/f; uwsgi_temp_path $NGINX_DIR/u; scgi_temp_path $NGINX_DIR/s;
  server {
    listen 127.0.0.1:$PORT;
    location /files/ { alias $SITE/; }
    location /gzip/ { alias $SITE/; gzip_static on; }
  }
}
CONF
/usr/sbin/nginx -c "$NGINX_DIR/nginx.conf" -p "$NGINX_DIR" -e "$NGINX_DIR/error.log" &
SERVER=$!
trap 'kill -9 $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/files/manifest.json" && break; sleep 0.05; done
GZIP_BYTES=$(python3 -c "import json; print(json.load(open('$SITE/manifest.json'))['bundles'][0]['gzip_bytes'])")

# Best of 5 for curl; store-bench times each transport the same way.
curl_best() {
  local best=0 speed
  for _ in 1 2 3 4 5; do
    rm -f "$WORK/curl.out"
    speed=$(curl -s "$@" -o "$WORK/curl.out" -w '%{speed_download}')
    best=$(python3 -c "print(max($best, $speed))")
  done
  rm -f "$WORK/curl.out"
  echo "$best"
}
for kind in files gzip; do
  URL="http://127.0.0.1:$PORT/$kind/$NAME.db"
  if [ $kind = files ]; then
    echo "== download of $NAME.db ($BYTES bytes) from nginx over loopback, as is; best of 5, each writes the file"
    best=$(curl_best "$URL")
    CURL_NOTE="curl -o FILE"
  else
    echo "== the same, gzip on the wire (gzip_static; the manifest lists $GZIP_BYTES gzip bytes); each writes the decoded file"
    # curl's speed counts wire bytes: convert to decoded bytes per second as the store's are.
    wire=$(curl_best --compressed "$URL")
    best=$(python3 -c "print($wire * $BYTES / $GZIP_BYTES)")
    CURL_NOTE="curl --compressed -o FILE"
  fi
  python3 -c "print(f'$CURL_NOTE: {$best / 1e6:.0f} MB/s of the bundle')"
  "$BIN/store-bench" download "$URL" "$BYTES" | tee "$WORK/store-download.txt"
  python3 -c "
for line in open('$WORK/store-download.txt'):
    name, speed = line.split(':')[0], float(line.split('= ')[1].split()[0])
    print(f'{name} / curl: {speed / ($best / 1e6) * 100:.0f} % (target 80 %)')"
done
tail -n 1 "$NGINX_DIR/access.log" | awk -v listed="$GZIP_BYTES" '{printf "bytes on the wire for the last gzip download: %d = %.1f %% of the manifest'"'"'s gzip_bytes (target within 5 %%)\n", $3, ($3 - listed) * 100 / listed}'
# The whole job as an app runs it: download, SHA-256, open check, install (fsync, rename).
for run in 1 2 3; do
  rm -rf "$WORK/store-dir"
  "$BIN/transit-store" --dir "$WORK/store-dir" manifest "http://127.0.0.1:$PORT/gzip/manifest.json" > /dev/null
  /usr/bin/time -f "%e" -o "$WORK/store.time" "$BIN/transit-store" --dir "$WORK/store-dir" download "$NAME" > /dev/null
  python3 -c "t=float(open('$WORK/store.time').read()); print(f'transit-store download (gzip on the wire; run $run, with verify and install): {t:.2f} s = {$BYTES / 1e6 / t:.0f} MB/s')"
done

echo "== SHA-256"
"$BIN/store-bench" sha256 "$BIG"
python3 -c "
import hashlib, time
data = open('$BIG', 'rb').read()
best = min((lambda s: (hashlib.sha256(data).hexdigest(), time.perf_counter() - s)[1])(time.perf_counter()) for _ in range(3))
print(f'python hashlib (OpenSSL) for reference: {len(data) / 1e6 / best:.0f} MB/s')"

echo "== start-up with 50 installed bundles and their photos (5 per bundle, from nginx)"
rm -rf "$WORK/store-50" "$SITE/cities50"
mkdir -p "$SITE/cities50" "$SITE/img"
python3 - "$SITE" "$PORT" <<'PY'
import json, struct, sys, zlib
site, port = sys.argv[1], sys.argv[2]
def png(width, height, seed):
    rows = b"".join(b"\0" + bytes((x * 7 + seed) % 256 for x in range(width * 3)) for _ in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
images = []
for i in range(5):
    data = png(320, 200, i)
    open(f"{site}/img/p{i}.png", "wb").write(data)
    images.append({"url": f"http://127.0.0.1:{port}/files/img/p{i}.png", "type": "hero" if i == 0 else "gallery",
                   "width": 320, "height": 200, "size": len(data)})
city = {"id": "zurich", "name": "Zurich", "country": "CH", "location": {"lat": 47.3769, "lng": 8.5417},
        "images": images, "feeds": ["metro"]}
json.dump({"version": 1, "cities": [city]}, open(f"{site}/cities50/cities.json", "w"))
PY
for i in $(seq 1 50); do
  "$BIN/gtfs-compile" gtfs-samples/metro gtfs-samples/valley --cities "$SITE/cities50/cities.json" --id "city$i" \
    -o "$SITE/cities50/city$i.db" > /dev/null 2>&1
done
"$BIN/gtfs-compile" manifest "$SITE"/cities50/*.db -o "$SITE/cities50/manifest.json" > /dev/null
"$BIN/transit-store" --dir "$WORK/store-50" manifest "$SITE/cities50/manifest.json" > /dev/null
for i in $(seq 1 50); do "$BIN/transit-store" --dir "$WORK/store-50" download "city$i" > /dev/null; done
echo "photos kept: $(find "$WORK/store-50/photos" -name '*.png' | wc -l), $(du -sb "$WORK/store-50/photos" | cut -f1) bytes"
"$BIN/store-bench" startup "$WORK/store-50" 50

echo "== signature check of a manifest (target: under 1 ms for 100 bundles)"
"$BIN/store-bench" verify "$SITE/cities50/manifest.json" 200
