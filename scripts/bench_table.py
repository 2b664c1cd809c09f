#!/usr/bin/env python3
"""Turns `vecpress bench --peers --json --codecs vbyte-delta` output into the
README's results table: ratios between kernels and peers from ONE run.
"scalar" is vecpress's own scalar decoder (prefix sum fused in); "textbook
loop" is `peer:leb128-scalar-delta`, a byte loop followed by a prefix-sum pass.

    cargo run --release -p vecpress-cli -- bench --peers --json --codecs vbyte-delta \
        ../shared/data/postings/ > postings.jsonl
    scripts/bench_table.py postings.jsonl
"""
import json
import sys


def main(path: str) -> None:
    by = {}
    for line in open(path):
        r = json.loads(line)
        if "absent" in r or "error" in r:
            print(f"<!-- {r} -->")
            continue
        by.setdefault(r["input"], {})[(r["codec"], r["isa"])] = r
    cols = ["scalar", "sse41", "avx512", "c", "varint", "leb128"]
    print("| input | bits/int | scalar Mi/s | sse41 ÷ scalar | sse41 ÷ textbook loop | avx512 ÷ scalar "
          "| avx512 ÷ sse41 | sse41 ÷ C MaskedVByte | avx512 ÷ C MaskedVByte | avx512 ÷ varint-simd "
          "| avx512 ÷ memcpy |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    total = {c: [0, 0.0] for c in cols}
    for name, d in by.items():
        rows = dict(zip(cols, [d[("vbyte-delta", "scalar")], d[("vbyte-delta", "sse41")],
                               d[("vbyte-delta", "avx512")], d[("peer:maskedvbyte-c-delta", "-")],
                               d[("peer:varint-simd-delta", "-")],
                               d[("peer:leb128-scalar-delta", "-")]]))
        for c, r in rows.items():
            total[c][0] += r["values"]
            total[c][1] += r["values"] / r["decode_mis"]
        s, e, a, c, v, t = (rows[k]["decode_mis"] for k in cols)
        memcpy = rows["avx512"]["decode_gbs"] / rows["avx512"]["memcpy_gbs"]
        print(f"| {name} | {rows['scalar']['bits_per_value']:.2f} | {s:.0f} | {e / s:.2f} | {e / t:.2f} "
              f"| {a / s:.2f} | {a / e:.2f} | {e / c:.2f} | {a / c:.2f} | {a / v:.1f} | {memcpy:.2f} |")
    if len(by) > 1:
        m = {k: n / t for k, (n, t) in total.items()}
        print(f"| all inputs (values ÷ total time) | | {m['scalar']:.0f} | {m['sse41'] / m['scalar']:.2f} "
              f"| {m['sse41'] / m['leb128']:.2f} | {m['avx512'] / m['scalar']:.2f} | {m['avx512'] / m['sse41']:.2f} | {m['sse41'] / m['c']:.2f} "
              f"| {m['avx512'] / m['c']:.2f} | {m['avx512'] / m['varint']:.1f} | |")


if __name__ == "__main__":
    main(sys.argv[1])
