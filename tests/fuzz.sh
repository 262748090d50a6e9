#!/bin/sh
# fuzz.sh: every libFuzzer harness (tests/fuzz/fuzz_*.c) for a few seconds,
# two at a time: first over its corpus (tests/fuzz/corpus/NAME, where the
# inputs of crashes found before are kept), then on inputs of its own.
# Prints TAP; a harness that fails shows what libFuzzer reported.  New
# inputs go to a temporary directory, never to the corpus.
#
#   sh tests/fuzz.sh FUZZ_DIR [SECONDS]

dir=${1:-build/fuzz}
seconds=${2:-3}
here=$(dirname "$0")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
. "$here/tap.sh"

# run NAME: one harness, its log and exit status left in the scratch dir.
# The mahjong harnesses first build the shanten tables, which takes about
# 3 s under the sanitizers: it gets that much more.
run() {
  mkdir -p "$scratch/$1/new"
  dict=
  [ -f "$here/fuzz/$1.dict" ] && dict=-dict=$here/fuzz/$1.dict
  time=$seconds
  case $1 in fuzz_mahjong|fuzz_tenhou|fuzz_table) time=$((seconds + 3)) ;; esac
  "$dir/$1" -max_total_time="$time" -timeout=30 -rss_limit_mb=2048 \
    -max_len=4096 -artifact_prefix="$scratch/$1/" $dict \
    "$scratch/$1/new" "$here/fuzz/corpus/$1" >"$scratch/$1.log" 2>&1
  echo $? >"$scratch/$1.status"
}

names=
for source in "$here"/fuzz/fuzz_*.c; do
  names="$names $(basename "$source" .c)"
done

set -- $names
while [ $# -gt 0 ]; do
  run "$1" &
  if [ $# -gt 1 ]; then
    run "$2" &
    shift
  fi
  shift
  wait
done

for name in $names; do
  status=$(cat "$scratch/$name.status" 2>/dev/null || echo 1)
  runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$scratch/$name.log")
  check "$status" "$name (${runs:-no} runs)"
  if [ "$status" != 0 ]; then
    grep -v '^#[0-9]' "$scratch/$name.log" | tail -n 30 | sed 's/^/# /'
  fi
done
echo "1..$n"
