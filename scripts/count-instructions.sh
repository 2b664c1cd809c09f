#!/usr/bin/env bash
# Counts the instructions of one pass of each LZ4 coder (the fast
# compressor, the level-9 one, the decoding loops) over a file's 64 KiB
# blocks (crates/vecpress/benches/lz4_count.rs under valgrind's callgrind), ours beside
# liblz4's and lz4_flex's. Timings on a small shared machine move by 5-10%
# from run to run; these counts do not, so they show whether a change to a
# loop made it do less work. Fewer instructions is not always faster (the
# decoding loops wait on a chain of loads, the compressor on mispredicted
# branches), so a change still needs `lz4_timing` or `vecpress bench`.
#
#   scripts/count-instructions.sh [FILE...]     (default: the Silesia files)
#   LEVEL=9 scripts/count-instructions.sh ...   the decoders on blocks that
#                                               lz4::hc made at that level
#
# valgrind runs no AVX-512: under it the CPU dispatch stops at AVX2, and the
# `copy32` loop is the AVX2 one it would run anyway.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v valgrind >/dev/null 2>&1; then
    echo "count-instructions: valgrind is not installed" >&2
    exit 1
fi
# A bench target's binary carries a hash in its name: ask cargo for its path.
bin=$(cargo bench -q -p vecpress --bench lz4_count --no-run --message-format=json |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
if [[ $# -eq 0 ]]; then
    set -- ../shared/data/silesia/*
fi

count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" ${LEVEL:+"$LEVEL"} 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

for file in "$@"; do
    setup=$(count "$file" setup)
    declare -A n=()
    for mode in compress liblz4-compress hc:9 liblz4-hc:9 decompress:copy8 decompress:copy16 \
        decompress:shuffle16 decompress:copy32 liblz4-decompress lz4_flex-decompress; do
        n[$mode]=$(($(count "$file" "$mode") - setup))
    done
    echo "$file ($(stat -c %s "$file") bytes${LEVEL:+, blocks made at level $LEVEL}): millions of instructions, and against liblz4"
    for mode in compress hc:9 decompress:copy8 decompress:copy16 decompress:shuffle16 \
        decompress:copy32 lz4_flex-decompress; do
        case $mode in
        compress) peer=${n[liblz4-compress]} ;;
        hc:9) peer=${n[liblz4-hc:9]} ;;
        *) peer=${n[liblz4-decompress]} ;;
        esac
        awk -v m="$mode" -v a="${n[$mode]}" -v b="$peer" \
            'BEGIN { printf "  %-22s %8.1f M  x%.2f\n", m, a / 1e6, a / b }'
    done
    awk -v a="${n[liblz4-compress]}" -v h="${n[liblz4-hc:9]}" -v b="${n[liblz4-decompress]}" \
        'BEGIN { printf "  %-22s %8.1f M\n  %-22s %8.1f M\n  %-22s %8.1f M\n", "liblz4 compress", a / 1e6, "liblz4 hc:9", h / 1e6, "liblz4 decompress", b / 1e6 }'
    unset n
done
