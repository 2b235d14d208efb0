#!/usr/bin/env python3
"""Writes the small zip fixtures the unit tests read (run once; the outputs are committed).

Each archive holds a tiny feed made from gtfs-samples/metro, packed a different way.
"""
import os, struct, zipfile, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "..", "gtfs-samples", "metro")
OUT = os.path.join(HERE, "zips")
FILES = sorted(f for f in os.listdir(SAMPLE) if f.endswith(".txt"))


def sample(name):
    with open(os.path.join(SAMPLE, name), "rb") as f:
        return f.read()


def entry(name):
    """A fixed date, so the same script always writes the same bytes."""
    return zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))


def plain(path, method, prefix="", extra=()):
    with zipfile.ZipFile(path, "w", method) as z:
        for name in FILES:
            z.writestr(entry(prefix + name), sample(name), compress_type=method)
        for name, data in extra:
            z.writestr(entry(name), data, compress_type=method)


def deflate(data):
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    return comp.compress(data) + comp.flush()


def streamed(path):
    """Deflated entries written with data descriptors (sizes after the data), as streaming zippers do."""
    out = bytearray()
    central = bytearray()
    for name in FILES:
        data = sample(name)
        packed = deflate(data)
        crc = zlib.crc32(data)
        offset = len(out)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 8, 8, 0, 0, 0, 0, 0, len(name), 0) + name.encode()
        out += packed + struct.pack("<IIII", 0x08074B50, crc, len(packed), len(data))
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 8, 8, 0, 0, crc, len(packed), len(data),
                               len(name), 0, 0, 0, 0, 0, offset) + name.encode()
    start = len(out)
    out += central + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(FILES), len(FILES), len(central), start, 0)
    open(path, "wb").write(out)


def zip64(path):
    """Every size and offset in the central directory is 0xFFFFFFFF with the real value in a
    ZIP64 extra field, and the archive ends with a ZIP64 end record and locator."""
    out = bytearray()
    central = bytearray()
    for name in FILES:
        data = sample(name)
        packed = deflate(data)
        crc = zlib.crc32(data)
        offset = len(out)
        local_extra = struct.pack("<HHQQ", 0x0001, 16, len(data), len(packed))
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, 8, 0, 0, crc, 0xFFFFFFFF, 0xFFFFFFFF, len(name), len(local_extra))
        out += name.encode() + local_extra + packed
        extra = struct.pack("<HHQQQ", 0x0001, 24, len(data), len(packed), offset)
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, 8, 0, 0, crc, 0xFFFFFFFF, 0xFFFFFFFF,
                               len(name), len(extra), 0, 0, 0, 0, 0xFFFFFFFF) + name.encode() + extra
    start = len(out)
    out += central
    end64 = len(out)
    out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, len(FILES), len(FILES), len(central), start)
    out += struct.pack("<IIQI", 0x07064B50, 0, end64, 1)
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    open(path, "wb").write(out)


def lying(path, declared_factor):
    """One entry whose header declares a size different from its real size."""
    plain(path, zipfile.ZIP_DEFLATED)
    data = bytearray(open(path, "rb").read())
    # Patch the central directory's uncompressed size of stop_times.txt.
    name = b"stop_times.txt"
    at = data.find(struct.pack("<I", 0x02014B50))
    while at >= 0:
        n = struct.unpack_from("<H", data, at + 28)[0]
        if bytes(data[at + 46:at + 46 + n]) == name:
            real = struct.unpack_from("<I", data, at + 24)[0]
            struct.pack_into("<I", data, at + 24, int(real * declared_factor))
        at = data.find(struct.pack("<I", 0x02014B50), at + 4)
    open(path, "wb").write(bytes(data))


def main():
    os.makedirs(OUT, exist_ok=True)
    plain(os.path.join(OUT, "stored.zip"), zipfile.ZIP_STORED)
    plain(os.path.join(OUT, "deflated.zip"), zipfile.ZIP_DEFLATED)
    plain(os.path.join(OUT, "in-folder.zip"), zipfile.ZIP_DEFLATED, prefix="metro-2026/",
          extra=[("__MACOSX/metro-2026/._stops.txt", b"junk"), ("metro-2026/notes/readme.txt", b"hi")])
    plain(os.path.join(OUT, "unsafe-paths.zip"), zipfile.ZIP_DEFLATED, extra=[("../evil.txt", b"x"), ("/abs.txt", b"y")])
    streamed(os.path.join(OUT, "data-descriptor.zip"))
    lying(os.path.join(OUT, "size-too-small.zip"), 0.5)
    lying(os.path.join(OUT, "size-too-large.zip"), 2.0)
    # A deflate bomb: 50 MB of zeros declared as 1 KB.
    with zipfile.ZipFile(os.path.join(OUT, "bomb.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        for name in FILES:
            z.writestr(entry(name), sample(name) if name != "stop_times.txt" else b"\0" * (50 << 20), compress_type=zipfile.ZIP_DEFLATED)
    lying_bomb = os.path.join(OUT, "bomb.zip")
    data = bytearray(open(lying_bomb, "rb").read())
    at = data.find(struct.pack("<I", 0x02014B50))
    while at >= 0:
        n = struct.unpack_from("<H", data, at + 28)[0]
        if bytes(data[at + 46:at + 46 + n]) == b"stop_times.txt":
            struct.pack_into("<I", data, at + 24, 1024)
        at = data.find(struct.pack("<I", 0x02014B50), at + 4)
    open(lying_bomb, "wb").write(bytes(data))
    zip64(os.path.join(OUT, "zip64.zip"))
    open(os.path.join(OUT, "not-a-zip.zip"), "wb").write(b"agency_id,agency_name\n")
    open(os.path.join(OUT, "truncated.zip"), "wb").write(open(os.path.join(OUT, "deflated.zip"), "rb").read()[:900])


main()
