#!/usr/bin/env python3
"""Regenerates the boundary rows of vectors.txt with an independent LEB128 writer.

The first rows (paper Table 1, protobuf guide) are copied from those documents;
this script checks them and prints every row, so `python3 generate.py > vectors.txt`
rebuilds the file and `git diff` shows any drift.
"""


def leb128(v: int) -> str:
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return out.hex()


rows = [
    ("Plaisance, Kurz, Lemire (2015), Table 1", [1, 2, 4, 128, 256, 512, 16384, 32768]),
    ("protobuf encoding guide (varints)", [1, 150, 300]),
    ("boundaries of each byte length", [0, 127, 16383, 2097151, 2097152, 268435455, 268435456,
                                        4294967295, 2**64 - 1, 2**63, 2**35]),
]
assert leb128(150) == "9601" and leb128(300) == "ac02"  # as the protobuf guide prints them
print("# value  vbyte-bytes-hex")
for title, values in rows:
    print("# " + title)
    for v in values:
        print(v, leb128(v))
