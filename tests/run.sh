#!/bin/sh
# run.sh: every test suite, one summary line each, then the total alone on
# the last line as "N passed, N failed".  Exits non-zero on any failure.
#
#   sh tests/run.sh BIN_DIR CTEST_DIR [SANITIZE [FUZZ_DIR]]
#
# Each suite speaks TAP (cmocka, busted and luacheck all can); a suite that
# exits non-zero without reporting a failure (a crash, a sanitizer report)
# counts as one failure more.

bin=${1:-.}
ctests=${2:-build/release/tests}
sanitize=${3:-}
fuzz=${4:-build/fuzz}
logs=$ctests/logs
mkdir -p "$logs"

passed=0
failed=0

log_of() { echo "$logs/$(echo "$1" | tr '/ ' '__').log"; }

# run_suite NAME COMMAND...: runs it, counts its TAP lines, prints a line.
run_suite() {
  name=$1
  shift
  "$@" >"$(log_of "$name")" 2>&1
  report "$name" $?
}

# report NAME STATUS: the summary line of a suite that has run.
report() {
  name=$1
  status=$2
  log=$(log_of "$name")
  ok=$(grep -c '^ok ' "$log")
  bad=$(grep -c '^not ok ' "$log")
  if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then
    bad=1
  fi
  passed=$((passed + ok))
  failed=$((failed + bad))
  printf '%-28s %4d passed, %d failed\n' "$name" "$ok" "$bad"
  if [ "$bad" -ne 0 ]; then
    # The failures with what they said, then the end of the log.
    grep -A 12 '^not ok ' "$log" | sed 's/^/    /' | head -n 80
    [ "$status" -ne 0 ] && tail -n 25 "$log" | sed 's/^/    | /'
  fi
}

# Under the sanitizers a stock lua5.4 must load the ASan and UBSan runtimes
# before it can load the sanitized ludus.so: LUDUS_PRELOAD says which, for
# the suites that start lua5.4.
LUDUS_PRELOAD=
if [ "$sanitize" = 1 ]; then
  cc=${CC:-cc}
  LUDUS_PRELOAD="$($cc -print-file-name=libasan.so) $($cc -print-file-name=libubsan.so)"
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  # a stack frame used after its function returned, and memory never
  # freed, are errors too
  ASAN_OPTIONS=detect_stack_use_after_return=1:detect_leaks=1
  export UBSAN_OPTIONS ASAN_OPTIONS
fi
export LUDUS_PRELOAD

# The Connect Four solver's test sets take minutes: that suite runs on
# the second core while the others run, and reports last.
long=test_connect4_solve
long_pid=
if [ -x "$ctests/$long" ]; then
  CMOCKA_MESSAGE_OUTPUT=TAP "$ctests/$long" >"$(log_of "c/$long")" 2>&1 &
  long_pid=$!
fi

for test in "$ctests"/test_*; do
  [ -x "$test" ] || continue
  [ "$(basename "$test")" = "$long" ] && continue
  CMOCKA_MESSAGE_OUTPUT=TAP run_suite "c/$(basename "$test")" "$test"
done

LUDUS_BIN_DIR=$bin
export LUDUS_BIN_DIR
# The specs count nodes and hit limits, so no opening book may answer for
# the search: LUDUS_BOOK set but empty means none.
run_suite "lua specs" env LD_PRELOAD="$LUDUS_PRELOAD" LUDUS_BOOK= \
  busted --lua=lua5.4 -o TAP tests/lua
# Every Lua example of the README and docs/, and the checks that keep
# the manual true (tests/docs.sh); no book, as in the specs.
run_suite "docs examples" env LUDUS_BOOK= "$bin/ludus" tests/docs/examples.lua \
  README.md docs/*.md
run_suite "docs" sh tests/docs.sh "$bin" "$sanitize"
run_suite "luacheck" luacheck --formatter TAP scripts tests bindings/embed.lua
run_suite "install" sh tests/install.sh "$bin"
run_suite "tools" sh tests/tools.sh "$(dirname "$ctests")/tools"
run_suite "interrupt" sh tests/interrupt.sh "$bin"
run_suite "batch" sh tests/batch.sh "$bin" "$LUDUS_DATA"
run_suite "match" sh tests/match.sh "$bin" "$LUDUS_DATA"
run_suite "fuzz" sh tests/fuzz.sh "$fuzz"
# Every public function and method with hostile values, for a few
# seconds from a fixed seed (make fuzz runs it longer, from new seeds).
run_suite "lua fuzz" env LUDUS_BOOK= "$bin/ludus" tests/fuzz/fuzz_lua.lua 8 1
if [ -n "$long_pid" ]; then
  wait "$long_pid"
  report "c/$long" $?
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
