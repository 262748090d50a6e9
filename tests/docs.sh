#!/bin/sh
# docs.sh: the checks that keep the manual true, beside the examples
# themselves (the "docs examples" suite runs every Lua block): the example
# runner's own tests, the links, help against the guides, the man page
# against `ludus --help`, `make help`, and the C example.  Prints TAP.
#
#   sh tests/docs.sh BIN_DIR [SANITIZE]

bin=${1:-.}
sanitize=${2:-}
ludus=$bin/ludus
fixtures=tests/docs/fixtures
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/tap.sh"

# verdict STATUS NAME [FILE]: check, and on a failure FILE as comments.
verdict() {
  check "$1" "$2"
  if [ "$1" -ne 0 ] && [ -n "${3:-}" ]; then sed 's/^/#   /' "$3"; fi
}

# The text of a page on one line, so a phrase may cross a line break.
flat() { tr '\n' ' ' <"$1" | tr -s ' '; }

# The example runner on its fixtures: runs FIXTURE, expects STATUS and a
# line matching PATTERN in its report.
runner() {
  "$ludus" tests/docs/examples.lua "$fixtures/$1" >"$dir/out" 2>&1
  status=$?
  [ "$status" = "$2" ] && grep -q -- "$3" "$dir/out"
  verdict $? "example runner on $1: exits $2 and says '$3'" "$dir/out"
}
runner pass.md 0 '^# blocks: 3 run, 1 not run (no-run), 0 failed; 8 values checked'
runner pass.md 0 '^ok 3 - tests/docs/fixtures/pass.md:30 # SKIP no-run'
runner wrong.md 1 '^not ok 2 - tests/docs/fixtures/wrong.md:7'
runner wrong.md 1 '^#   got:      x'
runner error.md 1 "^#   error: stdin:1: tictactoe: bad move 'z9'"
runner no-error.md 1 '^#   got:      no error'

# Links to files (and headings) that exist, and the checker catches one
# that does not.
lua5.4 tests/docs/links.lua README.md docs/*.md >"$dir/out" 2>&1
verdict $? "every relative link in README.md and docs/ points at a file" "$dir/out"
lua5.4 tests/docs/links.lua "$fixtures/links.md" >"$dir/out" 2>&1
[ $? -ne 0 ] && [ "$(wc -l <"$dir/out")" -eq 2 ] && grep -q 'nothere.md' "$dir/out" \
  && grep -q 'pass.md#nope' "$dir/out"
verdict $? "the link checker finds a missing file and a missing heading" "$dir/out"

# Every module help knows shows its help in a guide, where the example
# runner checks it against what help prints.
missing=""
for module in $("$ludus" -e 'for k in pairs(require "ludus.doc") do print(k) end'); do
  shown="help(\(ludus\.\)\{0,1\}$module)"
  [ "$module" = ludus ] && shown="help()"          # help() is help(ludus)
  grep -q "^$shown *-->$" docs/*.md || missing="$missing $module"
done
[ -z "$missing" ]
verdict $? "every module of scripts/ludus/doc.lua has its help(...) in docs/"
[ -z "$missing" ] || echo "#   missing:$missing"

# The man page renders without a warning, and lists the options that
# `ludus --help`, `ludus solve --help` (the batch commands') and `ludus
# match --help` list.
MANWIDTH=80 man --warnings -l docs/ludus.1 >"$dir/man" 2>"$dir/man.err"
[ $? -eq 0 ] && [ ! -s "$dir/man.err" ] && grep -q 'OPTIONS' "$dir/man"
verdict $? "man -l docs/ludus.1 renders without warnings" "$dir/man.err"
{ "$ludus" --help; "$ludus" solve --help; "$ludus" match --help; } | grep -o -- '^  -[^ ]*\|--[a-z][a-z-]*' \
  | tr -d ' ' | sort -u >"$dir/help.opts"
grep -A1 '^\.TP' docs/ludus.1 | grep '^\.B' | grep -o '\\-[\\a-zA-Z-]*\|\\-$' \
  | sed 's/\\//g' | sort -u >"$dir/man.opts"
diff "$dir/help.opts" "$dir/man.opts" >"$dir/out"
[ $? -eq 0 ] && [ -s "$dir/help.opts" ]
verdict $? "ludus --help and ludus.1 list the same options" "$dir/out"

# make help: one line per target, every target there; its figure for
# make bench is the README's.
make --no-print-directory -s help >"$dir/targets" 2>&1
status=$?
phony=$(sed -n '/^\.PHONY:/,/[^\\]$/p' Makefile | tr -d '\\' | sed 's/^\.PHONY://')
missing=""
for target in $phony; do
  grep -q "^  make $target " "$dir/targets" || missing="$missing $target"
done
[ "$status" -eq 0 ] && [ -z "$missing" ]
verdict $? "make help lists every target" "$dir/targets"
[ -z "$missing" ] || echo "#   missing:$missing"
took=$(grep '^  make bench ' "$dir/targets" | grep -o '(about [^,)]*')
[ -n "$took" ] && flat README.md | grep -q "make bench\` [^()]*$took" \
  && flat docs/benchmarks.md | grep -q "make bench\` [^()]*$took"
verdict $? "make help, README.md and docs/benchmarks.md agree on how long make bench takes"
echo "#   make help: '$took'"

# The C example of docs/c-library.md compiles against the library and
# prints what the page says.
awk '/^```c$/ { on = 1; next } /^```/ { on = 0 } on' docs/c-library.md >"$dir/example.c"
awk '/^```text$/ { on = 1; next } /^```/ { if (on) exit } on' docs/c-library.md >"$dir/expected"
flags=""
[ "$sanitize" = 1 ] && flags="-fsanitize=address,undefined"
${CC:-cc} -std=c11 -Wall -Wextra -Werror $flags -Icore "$dir/example.c" "$bin/libludus.a" \
  -lm -pthread -o "$dir/example" 2>"$dir/cc.err" && "$dir/example" >"$dir/got" 2>&1 \
  && cmp -s "$dir/expected" "$dir/got"
status=$?
cat "$dir/cc.err" "$dir/got" >"$dir/out" 2>/dev/null
verdict $status "the C example of docs/c-library.md compiles and prints what the page says" "$dir/out"

echo "1..$n"
