#!/usr/bin/env bash
# Compares two builds of the benchmark binary on one GPU, interleaved
# (old, new, old, new, ...) so that clock and thermal drift fall on both:
#   bash bench/gpu/old_new.sh OLD.gz [ROUNDS]
# OLD.gz is a gzip-compressed cuprum-bench from an earlier gpu-pack
# (target/gpu-pack/bin/bin__bench__cuprum-bench.gz, copied aside before the
# change); the new one is the current pack's. From the repository root of
# the GPU machine. Prints, per workload, the median over rounds of each
# build's median and new/old; the raw JSON lines go to $OUT (or /tmp).
set -u
old_gz=$1; rounds=${2:-3}
out=${OUT:-/tmp}
old=${TMPDIR:-/tmp}/cuprum-bench-old
gzip -dc "$old_gz" >"$old" && chmod +x "$old"
: >"$out/bench-old.jsonl"; : >"$out/bench-new.jsonl"
for r in $(seq "$rounds"); do
  (cd bench && "$old" --json) >>"$out/bench-old.jsonl" 2>/dev/null
  bash target/gpu-pack/run.sh bin cuprum-bench --json >>"$out/bench-new.jsonl" 2>/dev/null
done
python3 - "$out/bench-old.jsonl" "$out/bench-new.jsonl" <<'EOF'
import json, sys
def load(p):
    rows = {}
    for line in open(p):
        try:
            m = json.loads(line)
        except ValueError:
            continue
        rows.setdefault(m["name"], []).append(m["median"])
    return rows
old, new = load(sys.argv[1]), load(sys.argv[2])
med = lambda xs: sorted(xs)[len(xs) // 2]
print(f"{'workload':60} {'old':>10} {'new':>10} {'new/old':>8}")
for name in new:
    if name in old:
        o, n = med(old[name]), med(new[name])
        print(f"{name:60} {o:10.4g} {n:10.4g} {n / o if o else float('nan'):8.3f}")
    else:
        print(f"{name:60} {'-':>10} {med(new[name]):10.4g}      new")
EOF
