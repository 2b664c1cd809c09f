# Sourced by the scripts that write performance records (perf-record.sh,
# cli-throughput.sh): names this machine's CPU the one way the records do.
#
#   source scripts/cpu.sh; cpu_describe BIN
#
# sets `cpu_key`, the record's file name ("amd-25-1": vendor, family, model;
# "arm-<implementer>-<part>" on aarch64), and `cpu_label`, the name each row
# carries ("AMD EPYC (family 25 model 1, Zen 3), 2 cores"), whose
# microarchitecture is that of the CPU's profile in tune.rs as BIN (a vecpress
# binary) reports it, left out for a CPU with no profile of its own.

# The first value of a /proc/cpuinfo field ("" when the kernel does not give it).
cpuinfo() {
    awk -F': *' -v k="$1" '$1 ~ "^" k "[ \t]*$" { print $2; exit }' /proc/cpuinfo
}

cpu_describe() {
    local bin=$1 vendor model_name short family model detail implementer part uarch
    vendor=$(cpuinfo vendor_id)
    model_name=$(cpuinfo 'model name')
    if [[ -n "$vendor" ]]; then
        case "$vendor" in
            GenuineIntel) short=intel ;;
            AuthenticAMD) short=amd ;;
            *) short=$(tr '[:upper:]' '[:lower:]' <<<"$vendor") ;;
        esac
        family=$(cpuinfo 'cpu family')
        model=$(cpuinfo model)
        cpu_key="$short-$family-$model"
        detail="family $family model $model"
    else
        # aarch64 names its cores by implementer and part instead.
        implementer=$(cpuinfo 'CPU implementer')
        part=$(cpuinfo 'CPU part')
        cpu_key="arm-${implementer:-unknown}-${part:-unknown}"
        detail="implementer ${implementer:-?} part ${part:-?}"
        if [[ -z "$model_name" ]] && command -v lscpu >/dev/null 2>&1; then
            model_name=$(lscpu | awk -F': *' '$1 == "Model name" { print $2; exit }')
        fi
    fi
    # "zen3" -> "Zen 3", "golden-cove" -> "Golden Cove".
    uarch=$("$bin" inspect --cpu 2>/dev/null | awk '/^profile:/ && $3 == "(from" { print $2 }' |
        sed -E 's/^zen([0-9]+)$/Zen \1/; s/-/ /g; s/\b(.)/\u\1/g' || true)
    cpu_label="${model_name:-unknown CPU} ($detail${uarch:+, $uarch}), $(nproc) cores"
}
