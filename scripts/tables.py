#!/usr/bin/env python3
"""Turns `vecpress bench --json` output into the README's results tables:
ratios between rows of ONE run (the decoders' samples are interleaved with a
memcpy of the same bytes, so ratios hold on a noisy machine where absolute
speeds do not).

    scripts/tables.py fig5 postings.jsonl        # the five integer codecs (delta)
    scripts/tables.py byte-split floats.jsonl    # byte split on float files
    scripts/tables.py widths w2.jsonl w3.jsonl ... # byte split per width
    scripts/tables.py lz4 silesia.jsonl          # LZ4, adaptive and loops, against peers

The README gives the bench command behind each table. "best" is the fastest
kernel of a codec on that input; a missing row or peer shows as "-".
"""
import json
import sys


def load(paths):
    """Rows by (input, type), then by (codec, isa); absent peers and errors as
    comments."""
    by = {}
    for path in paths:
        for line in open(path):
            if not line.strip():
                continue
            r = json.loads(line)
            if "absent" in r or "error" in r:
                print(f"<!-- {r} -->")
                continue
            by.setdefault((r["input"], r["type"]), {})[(r["codec"], r["isa"])] = r
    return by


def ratio(a, b, digits=2):
    return f"{a / b:.{digits}f}" if a and b else "-"


def best(d, codec, key="decode_mis"):
    rows = [(r[key], isa) for (c, isa), r in d.items() if c == codec and r.get(key)]
    return max(rows) if rows else (None, "-")


def get(d, codec, isa, key="decode_mis"):
    r = d.get((codec, isa))
    return r[key] if r else None


def num(x, fmt):
    return format(x, fmt) if x is not None else "-"


def fig5(paths):
    print("| input | VByte bits/int | Stream VByte bits/int | scalar VByte Mi/s "
          "| Stream VByte best ÷ scalar VByte | ÷ C streamvbyte | avx2 ÷ sse41 | avx512 ÷ avx2 "
          "| G8IU best ÷ scalar VByte | GB sse41 ÷ scalar VByte | Masked VByte (sse41) ÷ scalar VByte "
          "| vbyte avx512 ÷ scalar VByte |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (name, _), d in load(paths).items():
        scalar = get(d, "vbyte-delta", "scalar")
        svb, svb_isa = best(d, "stream-vbyte-delta")
        g8iu, g8iu_isa = best(d, "varint-g8iu-delta")
        svb_avx2 = get(d, "stream-vbyte-delta", "avx2")
        print(
            f"| {name} | {num(get(d, 'vbyte-delta', 'scalar', 'bits_per_value'), '.2f')} "
            f"| {num(get(d, 'stream-vbyte-delta', 'scalar', 'bits_per_value'), '.2f')} "
            f"| {num(scalar, '.0f')} "
            f"| {ratio(svb, scalar)} ({svb_isa}) "
            f"| {ratio(svb, get(d, 'peer:streamvbyte-c-delta', '-'))} "
            f"| {ratio(svb_avx2, get(d, 'stream-vbyte-delta', 'sse41'))} "
            f"| {ratio(get(d, 'stream-vbyte-delta', 'avx512'), svb_avx2)} "
            f"| {ratio(g8iu, scalar)} ({g8iu_isa}) "
            f"| {ratio(get(d, 'varint-gb-delta', 'sse41'), scalar)} "
            f"| {ratio(get(d, 'vbyte-delta', 'sse41'), scalar)} "
            f"| {ratio(get(d, 'vbyte-delta', 'avx512'), scalar)} |"
        )


def byte_split(paths):
    print("| input | type | best decode GB/s | ÷ memcpy | ÷ scalar | ÷ avx2 | ÷ naive loop "
          "| best encode GB/s | ÷ memcpy | ÷ scalar | ÷ naive loop | lz4 ratio | split+lz4 ratio "
          "| split+lz4 decode GB/s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (name, t), d in load(paths).items():
        row = split_row(d)
        lz4 = d.get(("lz4", "auto"))
        both = next((r for (c, _), r in d.items() if c == "byte-split-lz4"), None)
        both_gbs, _ = best(d, "byte-split-lz4", "decode_gbs")
        print(f"| {name} | {t} | {row} | {lz4['ratio'] if lz4 else 0:.2f} "
              f"| {both['ratio'] if both else 0:.2f} | {num(both_gbs, '.2f')} |")


def split_row(d):
    dec, dec_isa = best(d, "byte-split", "decode_gbs")
    enc, enc_isa = best(d, "byte-split", "encode_gbs")
    memcpy = get(d, "byte-split", dec_isa, "memcpy_gbs")
    return (
        f"{dec:.1f} ({dec_isa}) | {ratio(dec, memcpy)} "
        f"| {ratio(dec, get(d, 'byte-split', 'scalar', 'decode_gbs'))} "
        f"| {ratio(dec, get(d, 'byte-split', 'avx2', 'decode_gbs'))} "
        f"| {ratio(dec, get(d, 'peer:naive', '-', 'decode_gbs'), 1)} "
        f"| {enc:.1f} ({enc_isa}) | {ratio(enc, memcpy)} "
        f"| {ratio(enc, get(d, 'byte-split', 'scalar', 'encode_gbs'))} "
        f"| {ratio(enc, get(d, 'peer:naive', '-', 'encode_gbs'), 1)}"
    )


def widths(paths):
    print("| width | best decode GB/s | ÷ memcpy | ÷ scalar | ÷ avx2 | ÷ naive loop "
          "| best encode GB/s | ÷ memcpy | ÷ scalar | ÷ naive loop |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows = sorted(load(paths).items(), key=lambda kv: int(kv[0][1].lstrip("w")))
    for (_, t), d in rows:
        print(f"| {t.lstrip('w')} | {split_row(d)} |")


def lz4(paths):
    print("| file | ratio (ours / liblz4) | adaptive GB/s | adaptive ÷ liblz4 | best loop "
          "| best ÷ liblz4 | adaptive ÷ best | adaptive ÷ lz4_flex | pairs ÷ liblz4 "
          "| pairs ÷ lz4_flex | compress ÷ liblz4 |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    files = load(paths)
    for (name, _), d in files.items():
        ours = d[("lz4", "auto")]
        c = d.get(("peer:lz4-c", "-"))
        flex = get(d, "peer:lz4_flex", "-", "decode_gbs")
        loops = [(r["decode_gbs"], k.split(":", 1)[1]) for (k, _), r in d.items()
                 if k.startswith("lz4:")]
        top, top_name = max(loops)
        a = ours["decode_gbs"]
        pairs = get(d, "lz4+pairs", "auto", "decode_gbs")
        print(
            f"| {name} | {ours['ratio']:.3f} / {c['ratio'] if c else 0:.3f} | {a:.2f} "
            f"| {ratio(a, c and c['decode_gbs'])} | {top_name} | {ratio(top, c and c['decode_gbs'])} "
            f"| {ratio(a, top)} | {ratio(a, flex)} "
            f"| {ratio(pairs, c and c['decode_gbs'])} | {ratio(pairs, flex)} "
            f"| {ratio(ours['encode_gbs'], c and c['encode_gbs'])} |"
        )
    if len(files) > 1:
        lz4_all(files)


def lz4_all(files):
    """The row of all files together: each decoder's total bytes over its
    total time (seconds per byte summed, weighted by each file's size)."""
    def speed(codec, isa, key="decode_gbs"):
        rows = [(d[(codec, isa)]["input_bytes"], d[(codec, isa)][key])
                for d in files.values() if (codec, isa) in d]
        if len(rows) < len(files) or not all(g for _, g in rows):
            return None
        return sum(n for n, _ in rows) / sum(n / g for n, g in rows)
    loops = {(k, isa) for d in files.values() for (k, isa) in d if k.startswith("lz4:")}
    tops = [(speed(k, isa), k.split(":", 1)[1]) for k, isa in loops]
    top, top_name = max(t for t in tops if t[0])
    a, c, flex = speed("lz4", "auto"), speed("peer:lz4-c", "-"), speed("peer:lz4_flex", "-")
    pairs = speed("lz4+pairs", "auto")
    enc = speed("lz4", "auto", "encode_gbs")
    print(
        f"| all files | - | {a:.2f} | {ratio(a, c)} | {top_name} | {ratio(top, c)} "
        f"| {ratio(a, top)} | {ratio(a, flex)} | {ratio(pairs, c)} | {ratio(pairs, flex)} "
        f"| {ratio(enc, speed('peer:lz4-c', '-', 'encode_gbs'))} |"
    )


if __name__ == "__main__":
    modes = {"fig5": fig5, "byte-split": byte_split, "widths": widths, "lz4": lz4}
    if len(sys.argv) < 3 or sys.argv[1] not in modes:
        sys.exit(f"usage: {sys.argv[0]} {{{'|'.join(modes)}}} FILE.jsonl...")
    modes[sys.argv[1]](sys.argv[2:])
