# ludus: a game engine in C driven from Lua 5.4.
#
# `make help` lists the targets, one line each: the `##` comment of each
# target below.

PREFIX   ?= /usr/local
CC       ?= cc
LUA      ?= lua5.4
SANITIZE ?=

# man-db (with groff-base) is for the test that the man page renders,
# clang-14 and its runtime for the fuzzers (libFuzzer), parallel for the
# test of shards run with GNU parallel, fairy-stockfish for the
# matches of ai.uci (make bench-xiangqi-match, one game in the specs) and
# as a second move generator (perft beside xiangqi.perft in the specs).
DEB_PACKAGES = liblua5.4-dev lua5.4 libedit-dev libcmocka-dev lua-busted parallel \
               lua-check pkg-config man-db clang-14 libclang-rt-14-dev fairy-stockfish

# Where objects and products go.  A plain build puts the products at the
# top level; a sanitizer build keeps its own tree so the two never mix.
ifeq ($(SANITIZE),1)
  OUT      = build/san
  BIN      = build/san
  SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer \
             -fno-sanitize-recover=all
  OPT      = -O1 -g
else
  OUT      = build/release
  BIN      = .
  SANFLAGS =
  OPT      = -O2 -g
endif

# popcnt is in every x86-64 processor since 2008; bitboards count with it.
# Where the machine that builds has them, Reversi uses more: AVX2 for
# moves and flips (four directions at a time), AVX-512's VL and CD for
# flips along rays (leading zeros counted four lanes at a time), and
# BMI2's bit extract for the evaluation's patterns where it is fast (not
# on AMD before Zen 3, CPU family 25).  Such a build runs on machines
# that have what it used; `make ARCH=-mpopcnt` builds for any x86-64.
# The sanitizer build keeps the plain code, so that make test and make
# test SANITIZE=1 cover both.
X86      = $(filter x86_64,$(shell uname -m))
CPU      = $(shell awk '/^vendor_id/ { v = $$3 } /^cpu family/ { f = $$4 } \
             /^flags/ { print v, f, $$0; exit }' /proc/cpuinfo 2>/dev/null)
AVX2     = $(if $(filter avx2,$(CPU)),-mavx2)
AVX512   = $(if $(and $(filter avx512vl,$(CPU)),$(filter avx512cd,$(CPU))),\
             -mavx512vl -mavx512cd)
SLOW_PEXT = $(and $(filter AuthenticAMD,$(firstword $(CPU))),\
              $(filter 21 22 23 24,$(word 2,$(CPU))))
BMI2     = $(if $(and $(filter bmi2,$(CPU)),$(if $(SLOW_PEXT),,yes)),-mbmi2)
ARCH    ?= $(if $(X86),-mpopcnt $(if $(SANITIZE),,$(AVX2) $(AVX512) $(BMI2)),)
WARN     = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wno-unused-parameter
LUA_CFLAGS  = $(shell pkg-config --cflags lua5.4 2>/dev/null)
LUA_LIBS    = $(shell pkg-config --libs lua5.4 2>/dev/null)
EDIT_CFLAGS = $(shell pkg-config --cflags libedit 2>/dev/null)
EDIT_LIBS   = $(shell pkg-config --libs libedit 2>/dev/null)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)

CFLAGS_ALL = -std=c11 -D_POSIX_C_SOURCE=200809L $(OPT) $(ARCH) $(WARN) -fPIC -pthread \
             $(SANFLAGS) $(CFLAGS)
LDFLAGS_ALL = -pthread $(SANFLAGS) $(LDFLAGS)

CORE_SRC    = $(wildcard core/*/*.c)
BIND_SRC    = $(filter-out bindings/main.c bindings/repl.c bindings/batch.c \
                bindings/match.c bindings/uci.c, \
                $(wildcard bindings/*.c))
REPL_SRC    = bindings/main.c bindings/repl.c bindings/batch.c bindings/match.c \
              bindings/uci.c
LUA_MODULES = $(wildcard scripts/ludus/*.lua scripts/players/*.lua \
                        scripts/variants/*.lua)
CTEST_SRC   = $(wildcard tests/c/test_*.c)
BENCH_SRC   = $(wildcard tests/bench/bench_*.c)
# The reference data: shared/ beside the clone, as CI has it; else, for a
# scratch clone of a working copy, shared/ beside the repository it came
# from.
ORIGIN     := $(shell git config --get remote.origin.url 2>/dev/null)
DATA       ?= $(firstword $(wildcard ../shared/data $(ORIGIN)/../shared/data) \
                ../shared/data)

CORE_OBJ  = $(CORE_SRC:%.c=$(OUT)/%.o) $(OUT)/reversi_weights.o
BIND_OBJ  = $(BIND_SRC:%.c=$(OUT)/%.o) $(OUT)/embedded.o
REPL_OBJ  = $(REPL_SRC:%.c=$(OUT)/%.o)
CTESTS    = $(CTEST_SRC:tests/c/%.c=$(OUT)/tests/%)
BENCHES   = $(BENCH_SRC:tests/bench/%.c=$(OUT)/bench/%)

# The fuzzers of tests/fuzz/ (see "fuzzing" below).
FUZZ_CC      = clang-14
FUZZ_SECONDS ?= 60
FUZZ_OUT     = build/fuzz
FUZZ_ARCH    = $(if $(X86),-mpopcnt $(AVX2) $(AVX512) $(BMI2),)
FUZZ_SANS    = -fsanitize=address,undefined -fno-sanitize-recover=all \
               -fno-omit-frame-pointer
FUZZ_CFLAGS  = -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -g $(FUZZ_ARCH) $(WARN) \
               -pthread $(FUZZ_SANS) -fsanitize=fuzzer-no-link
FUZZ_SRC     = $(wildcard tests/fuzz/fuzz_*.c)
FUZZERS      = $(FUZZ_SRC:tests/fuzz/%.c=$(FUZZ_OUT)/%)
FUZZ_OBJ     = $(CORE_SRC:%.c=$(FUZZ_OUT)/%.o) $(FUZZ_OUT)/reversi_weights.o
FUZZ_LIB     = $(FUZZ_OUT)/libludus.a

LIBLUDUS  = $(BIN)/libludus.a
LUDUS_SO  = $(BIN)/ludus.so
LUDUS_EXE = $(BIN)/ludus

.PHONY: all deps test repl bench bench-long bench-xiangqi-match book reversi-weights xiangqi-weights install \
        clean check-clang help fuzz fuzzers
.DELETE_ON_ERROR:

all: deps $(LIBLUDUS) $(LUDUS_SO) $(LUDUS_EXE) ## builds ./ludus, ./ludus.so and ./libludus.a (SANITIZE=1: in build/san)

help: ## lists the targets, one line each
	@awk -F ':.*## ' '/^[a-z-]+:.*## / { printf "  make %-16s %s\n", $$1, $$2 }' \
	  $(firstword $(MAKEFILE_LIST))

# Installs only what dpkg does not already have; silent when nothing is missing.
deps: ## installs the Debian packages that are missing; silent when none are
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' \
	    || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq \
	    --no-install-recommends $$missing >/dev/null || exit 1; \
	fi

$(OUT)/core/%.o: core/%.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icore -MMD -MP -c $< -o $@

# gcc's scheduling pass before register allocation, weighing register
# pressure, for the Reversi solver alone: FFO #40-#49 3% faster
# (docs/benchmarks.md); on the whole build the same flags made xiangqi
# perft 4 to 7% slower.  clang has no such flags.
IS_GCC := $(findstring Free Software Foundation,$(shell $(CC) --version 2>/dev/null))
$(OUT)/core/reversi/solve.o: CFLAGS_ALL += $(if $(IS_GCC),-fschedule-insns -fsched-pressure)

$(OUT)/bindings/%.o: bindings/%.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icore -Ibindings $(LUA_CFLAGS) $(EDIT_CFLAGS) \
	  -MMD -MP -c $< -o $@

# The pure-Lua parts of the library are compiled into the binaries, so
# `ludus` and `ludus.so` need no search path to find them.
$(OUT)/embedded.c: bindings/embed.lua $(LUA_MODULES) | deps
	@mkdir -p $(dir $@)
	$(LUA) bindings/embed.lua $@ $(LUA_MODULES)

$(OUT)/embedded.o: $(OUT)/embedded.c
	$(CC) $(CFLAGS_ALL) -Ibindings $(LUA_CFLAGS) -c $< -o $@

# The trained reversi evaluation's weights (make reversi-weights makes
# them anew) are compiled in the same way.
WEIGHTS = core/reversi/eval.weights

$(OUT)/reversi_weights.c: tools/embed_bytes.lua $(WEIGHTS) | deps
	@mkdir -p $(dir $@)
	$(LUA) tools/embed_bytes.lua $@ reversi_weights $(WEIGHTS)

$(OUT)/reversi_weights.o: $(OUT)/reversi_weights.c
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(LIBLUDUS): $(CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LUDUS_SO): $(BIND_OBJ) $(LIBLUDUS)
	$(CC) -shared $(LDFLAGS_ALL) -o $@ $(BIND_OBJ) $(LIBLUDUS) -lm

$(LUDUS_EXE): $(REPL_OBJ) $(BIND_OBJ) $(LIBLUDUS)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LUA_LIBS) $(EDIT_LIBS) -lm

$(OUT)/tests/%: tests/c/%.c $(LIBLUDUS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Wno-missing-prototypes -Icore $< -o $@ \
	  $(LIBLUDUS) $(CMOCKA_LIBS) $(LDFLAGS_ALL) -lm

$(OUT)/tools/%: tools/%.c $(LIBLUDUS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icore $< -o $@ $(LIBLUDUS) $(LDFLAGS_ALL) -lm

$(OUT)/bench/%: tests/bench/%.c $(LIBLUDUS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Wno-missing-prototypes -Icore $< -o $@ \
	  $(LIBLUDUS) $(LDFLAGS_ALL) -lm

# The trainers are built too, so that they keep compiling.
test: all $(CTESTS) $(OUT)/tools/train_reversi $(OUT)/tools/train_xiangqi $(FUZZERS) ## builds and runs every test, docs examples and a few seconds of each fuzzer included (SANITIZE=1: under ASan and UBSan)
	@LUDUS_DATA=$(DATA) sh tests/run.sh "$(BIN)" "$(OUT)/tests" "$(SANITIZE)" \
	  "$(FUZZ_OUT)"

# ---- fuzzing ----
# The harnesses of tests/fuzz/ are built by clang with libFuzzer, ASan
# and UBSan, on the core compiled for them in a tree of their own
# (whatever SANITIZE says), for the CPU that builds.  make test runs each
# for a few seconds over its corpus (tests/fuzz.sh); make fuzz runs each
# for FUZZ_SECONDS, new inputs going to build/fuzz/corpus/ and crashes to
# build/fuzz/crashes/, never to the corpus in tests/fuzz/corpus/.
$(FUZZ_OUT)/core/%.o: core/%.c | deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Icore -MMD -MP -c $< -o $@

$(FUZZ_OUT)/reversi_weights.c: tools/embed_bytes.lua $(WEIGHTS) | deps
	@mkdir -p $(dir $@)
	$(LUA) tools/embed_bytes.lua $@ reversi_weights $(WEIGHTS)

$(FUZZ_OUT)/reversi_weights.o: $(FUZZ_OUT)/reversi_weights.c
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_LIB): $(FUZZ_OBJ)
	rm -f $@ && ar rcs $@ $^

$(FUZZ_OUT)/common.o: tests/fuzz/common.c | deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Icore -MMD -MP -c $< -o $@

$(FUZZ_OUT)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OUT)/common.o $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -Icore -Itests/fuzz -MMD -MP \
	  $< $(FUZZ_OUT)/common.o $(FUZZ_LIB) -lm -o $@

fuzzers: $(FUZZERS) ## builds the libFuzzer harnesses of tests/fuzz without running them

# One run a harness, and the Lua-level fuzzer from a new seed (with the
# sanitized ludus under SANITIZE=1): make -j2 fuzz runs two at a time.
FUZZ_RUNS = $(FUZZ_SRC:tests/fuzz/%.c=fuzz-run-%)

fuzz: $(FUZZ_RUNS) fuzz-run-lua ## runs every fuzzer FUZZ_SECONDS (60) seconds; crashes go to build/fuzz/crashes/

fuzz-run-lua: all
	LUDUS_BOOK= $(LUDUS_EXE) tests/fuzz/fuzz_lua.lua $(FUZZ_SECONDS) $$(date +%s)

$(FUZZ_RUNS): fuzz-run-%: $(FUZZ_OUT)/%
	@mkdir -p $(FUZZ_OUT)/corpus/$* $(FUZZ_OUT)/crashes
	$(FUZZ_OUT)/$* -max_total_time=$(FUZZ_SECONDS) -timeout=30 \
	  -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
	  -artifact_prefix=$(FUZZ_OUT)/crashes/$*- \
	  $(patsubst %,-dict=%,$(wildcard tests/fuzz/$*.dict)) \
	  $(FUZZ_OUT)/corpus/$* tests/fuzz/corpus/$*

repl: all ## builds and starts the REPL
	@$(LUDUS_EXE)

# Every benchmark on the full reference sets (docs/benchmarks.md).
bench: all $(BENCHES) ## benchmarks on the reference sets in ../shared/data (about half an hour, nine minutes of it FFO #50-#59)
	$(OUT)/bench/bench_connect4 $(DATA)/connect4 1000
	$(OUT)/bench/bench_connect4 $(DATA)/connect4 200 weak
	$(LUDUS_EXE) tests/bench/bench_ai.lua 3
	$(OUT)/bench/bench_sudoku $(DATA)
	$(OUT)/bench/bench_sudoku $(DATA) 0 shapes
	$(LUDUS_EXE) tests/bench/bench_sudoku_variants.lua 50
	nice $(OUT)/bench/bench_mahjong $(DATA)
	$(OUT)/bench/bench_tenhou $(DATA)
	$(LUDUS_EXE) tests/bench/bench_mahjong_table.lua 3
	$(OUT)/bench/bench_reversi $(DATA) perft 11 12
	$(OUT)/bench/bench_reversi $(DATA) wthor 100
	$(LUDUS_EXE) tests/bench/bench_reversi_read.lua $(DATA) 5
	$(OUT)/bench/bench_reversi $(DATA) ffo 20 39
	$(OUT)/bench/bench_reversi $(DATA) ffo 40 49
	$(OUT)/bench/bench_reversi $(DATA) six
	$(OUT)/bench/bench_reversi $(DATA) ffo 50 59
	$(OUT)/bench/bench_xiangqi $(DATA)/xiangqi 1
	$(LUDUS_EXE) tests/bench/bench_xiangqi_uci.lua $(LUDUS_EXE) 20
	$(OUT)/bench/bench_batch $(LUDUS_EXE) $(DATA) 5
	$(LUDUS_EXE) tests/bench/bench_match.lua 3

# ludus's xiangqi search against Fairy-Stockfish at equal time, through
# ai.uci and ludus.match: GAMES games at MOVETIME ms a move, from the
# first moves of real games with the colours swapped.  `all` makes deps
# install fairy-stockfish when it is missing.  Every game goes to
# build/xiangqi-match.txt, a line each with its record.
GAMES    ?= 200
MOVETIME ?= 200
JOBS     ?=

bench-xiangqi-match: all ## ludus vs Fairy-Stockfish, GAMES=200 games at MOVETIME=200 ms a move (JOBS=2: two at once): score, Elo, how games ended (about 90 min, 45 with JOBS=2)
	@mkdir -p build
	$(LUDUS_EXE) tests/bench/bench_xiangqi_match.lua $(DATA) $(GAMES) $(MOVETIME) 8 \
	  build/xiangqi-match.txt $(JOBS)

# What takes many minutes: the empty Connect Four board from scratch;
# then, when `make book` has made the book, with it.
bench-long: all $(BENCHES) ## the empty 7x6 Connect Four board from scratch, then with the book
	$(OUT)/bench/bench_connect4_empty 1800
	@if [ -f $(BOOK) ]; then \
	  echo "$(OUT)/bench/bench_connect4_empty 60 $(BOOK)"; \
	  $(OUT)/bench/bench_connect4_empty 60 $(BOOK); \
	else echo "no book at $(BOOK): make book, then make bench-long again"; fi

# The Connect Four opening book: the engine solves the empty 7x6 board and
# the positions of the first BOOK_EXACT plies, and keeps what it proved on
# the positions of the first BOOK_PLIES plies.  The solver loads the book
# beside its binary: build/connect4-7x6.book beside ./ludus and
# ./ludus.so, share/ludus/connect4-7x6.book in an installation (or the
# file $$LUDUS_BOOK names).  make install installs INSTALL_BOOK, making it
# first when it is not there; INSTALL_BOOK= installs none.
BOOK         ?= build/connect4-7x6.book
BOOK_PLIES   ?= 12
BOOK_EXACT   ?= 1
INSTALL_BOOK ?= $(BOOK)

book: all ## the Connect Four opening book, build/connect4-7x6.book (about a minute)
	@mkdir -p $(dir $(BOOK))
	$(LUDUS_EXE) scripts/examples/connect4_book.lua $(BOOK) $(BOOK_PLIES) \
	  $(BOOK_EXACT)

$(INSTALL_BOOK): | $(LUDUS_EXE)
	@mkdir -p $(dir $@)
	$(LUDUS_EXE) scripts/examples/connect4_book.lua $@ $(BOOK_PLIES) $(BOOK_EXACT)

# The trained reversi evaluation: exact scores of positions from
# TRAIN_GAMES semi-random games (seeded: the same every run), then the
# least-squares fit of the weights, which replaces $(WEIGHTS).
TRAIN_GAMES ?= 40000
TRAIN_SEED  ?= 1
TRAIN_DIR   ?= build/train

reversi-weights: all $(OUT)/tools/train_reversi ## trains the 8x8 Reversi evaluation anew (half an hour)
	@mkdir -p $(TRAIN_DIR)
	$(OUT)/tools/train_reversi positions $(TRAIN_DIR)/positions.bin \
	  $(TRAIN_GAMES) $(TRAIN_SEED) 2
	$(OUT)/tools/train_reversi fit $(WEIGHTS) $(TRAIN_DIR)/positions.bin

# The xiangqi evaluation's weights: the quiet positions of the real games
# of $(DATA)/xiangqi/pgn with the games' results (searched for on the last
# position, XQ_TRAIN_NODES nodes, where a record has none), then the
# Texel-style fit from the hand-set weights, which replaces
# core/xiangqi/weights.c (tools/train_xiangqi.c says how).
XQ_TRAIN_NODES  ?= 100000
XQ_TRAIN_EPOCHS ?= 600
XQ_TRAIN_LAMBDA ?= 3e-8

xiangqi-weights: all $(OUT)/tools/train_xiangqi ## fits the xiangqi evaluation to real games anew (about 5 minutes)
	@mkdir -p $(TRAIN_DIR)
	$(OUT)/tools/train_xiangqi positions $(TRAIN_DIR)/xiangqi-positions.txt \
	  $(XQ_TRAIN_NODES) $(DATA)/xiangqi/pgn/iccs/*.pgn \
	  $(DATA)/xiangqi/pgn/ccpd-masters/*.pgn $(DATA)/xiangqi/pgn/ccpd-mates/*.pgn
	$(OUT)/tools/train_xiangqi fit $(TRAIN_DIR)/xiangqi-positions.txt \
	  core/xiangqi/weights.c $(XQ_TRAIN_EPOCHS) $(XQ_TRAIN_LAMBDA)

# Warnings-as-errors must hold for clang too.
check-clang: deps ## the same build with clang, warnings as errors
	$(MAKE) CC=clang OUT=build/clang BIN=build/clang all

install: all $(INSTALL_BOOK) ## installs ludus, ludus.so, libludus.a, the headers, the Lua parts, the scripts, the Connect Four book (made if needed) and man ludus (PREFIX=/usr/local)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib \
	  $(DESTDIR)$(PREFIX)/lib/lua/5.4 $(DESTDIR)$(PREFIX)/share/lua/5.4/ludus \
	  $(DESTDIR)$(PREFIX)/share/ludus $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 docs/ludus.1 $(DESTDIR)$(PREFIX)/share/man/man1/ludus.1
	install -m 755 $(LUDUS_EXE) $(DESTDIR)$(PREFIX)/bin/ludus
	install -m 755 $(LUDUS_SO) $(DESTDIR)$(PREFIX)/lib/lua/5.4/ludus.so
	install -m 644 $(LIBLUDUS) $(DESTDIR)$(PREFIX)/lib/libludus.a
	install -m 644 $(wildcard scripts/ludus/*.lua) \
	  $(DESTDIR)$(PREFIX)/share/lua/5.4/ludus/
	for dir in players variants; do \
	  install -d $(DESTDIR)$(PREFIX)/share/lua/5.4/ludus/$$dir && \
	  for f in scripts/$$dir/*.lua; do \
	    [ -e "$$f" ] || continue; \
	    install -m 644 $$f $(DESTDIR)$(PREFIX)/share/lua/5.4/ludus/$$dir/; \
	  done; \
	done
	for dir in $(patsubst core/%,%,$(wildcard core/*)); do \
	  install -d $(DESTDIR)$(PREFIX)/include/ludus/$$dir && \
	  install -m 644 core/$$dir/*.h $(DESTDIR)$(PREFIX)/include/ludus/$$dir/; \
	done
	cp -R $(wildcard scripts/players scripts/variants scripts/examples) \
	  $(DESTDIR)$(PREFIX)/share/ludus/
	$(if $(INSTALL_BOOK),install -m 644 $(INSTALL_BOOK) \
	  $(DESTDIR)$(PREFIX)/share/ludus/connect4-7x6.book)

clean: ## removes what the build made
	rm -rf build ludus ludus.so libludus.a

-include $(CORE_OBJ:.o=.d) $(BIND_OBJ:.o=.d) $(REPL_OBJ:.o=.d) \
         $(FUZZ_OBJ:.o=.d) $(FUZZ_OUT)/common.d $(FUZZERS:=.d)
