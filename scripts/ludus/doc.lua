-- doc.lua: one line of help for every function and method, read by help().
-- Each module has a summary, its functions (called with a dot) and the
-- methods of its objects (called with a colon).  tests/lua/module_spec.lua
-- checks that every function and method has its line here; the guides in
-- docs/ show help(module), which the docs examples check against these
-- lines, so a change here shows which guide to update.  The entries
-- ludus and help describe the module table and help itself, for
-- help(ludus.isatty) and help("word"); help() does not list them.
-- doc.protocol(sides, example) gives the protocol's method lines, for
-- games written in Lua.

-- The protocol every two-player game answers (docs/c-library.md), worded once.
local function protocol(sides, example)
  return {
    turn = ("g:turn() -> %s to move, nil when the game is over"):format(sides),
    moves = "g:moves() -> the legal moves as strings, in a stable order",
    play = ("g:play(m) -> a new game with m played (%s); g is unchanged")
      :format(example),
    push = "g:push(m) -> g, with m played in place (for search code)",
    pop = "g:pop() -> the last move, taken back in place",
    is_over = "g:is_over() -> true once the game has ended",
    result = "g:result() -> nil while playing, else {winner=, draw=}",
    copy = "g:copy() -> an independent copy, history included",
    hash = "g:hash() -> a 64-bit integer; equal positions, equal hashes",
    history = "g:history() -> the moves played since the start",
    save = "g:save() -> the game as text that load() reads back",
    last_move = "g:last_move() -> the move played last, nil when none",
  }
end

-- The board of the games whose squares have names (lgame.c), worded once.
local function board(methods, example, side)
  methods.at = ('g:at("%s") -> the side whose piece is there (%s), or nil')
    :format(example, side)
  methods.pieces = "g:pieces([side]) -> an iterator: for square, side in g:pieces() "
    .. "do ... end, squares in order"
  methods.count = "g:count() -> {side = pieces, ...} for both sides"
  return methods
end

local tictactoe_methods = board(protocol('"x" or "o"', '"b2"'), "b2", '"x"')
tictactoe_methods.x = 'g:x(m) -> like play, but raises unless x is to move'
tictactoe_methods.o = 'g:o(m) -> like play, but raises unless o is to move'
tictactoe_methods.solve = "g:solve() -> value for the side to move (1 win, 0 draw, "
  .. "-1 loss), a best move"

local connect4_methods = protocol('"yellow" or "red"', '"4"')
connect4_methods.drop = "g:drop(column) -> a new game with the chip of the side "
  .. "to move dropped in column (1-based)"
connect4_methods.yellow = "g:yellow(column) -> like drop, but raises unless "
  .. "yellow is to move"
connect4_methods.red = "g:red(column) -> like drop, but raises unless red is to move"
connect4_methods.state = 'g:state() -> "yellow", "red", "yellow won", '
  .. '"red won" or "draw"'
connect4_methods.save = 'g:save() -> the moves as column digits, "4453"'
connect4_methods.rows = 'g:rows() -> the rows, top first, as strings like "..YR..."'
connect4_methods.size = "g:size() -> width, height"
connect4_methods.solve = "g:solve{weak=, nodes=, time=, progress=} -> exact "
  .. "score (Pons: 22-k for a win with your k-th chip on 7x6), best column, "
  .. "info {nodes, seconds, complete, book}"
connect4_methods.analyze = "g:analyze{weak=, nodes=, time=} -> the score of "
  .. "every column (nil if full), info"
connect4_methods.at = 'g:at(column, row) -> "yellow", "red" or nil; row 1 is the bottom'
connect4_methods.pieces = "g:pieces([colour]) -> an iterator: for column, row, "
  .. "colour in g:pieces() do ... end"
connect4_methods.count = "g:count() -> {yellow=, red=}: the chips now"
connect4_methods.bitboards = 'g:bitboards(["turn"]) -> yellow\'s and red\'s chips '
  .. "(the side to move's first with \"turn\"): bit (column-1)*(height+1) + row-1"

local function mnk_methods(sides, example, side)
  local methods = board(protocol(sides, example), example:sub(2, -2), side)
  methods.size = "g:size() -> m, n, k: columns, rows, and the line that wins"
  return methods
end

local mnk_methods_x = mnk_methods('"x" or "o"', '"b2"', '"x"')
mnk_methods_x.x = "g:x(m) -> like play, but raises unless x is to move"
mnk_methods_x.o = "g:o(m) -> like play, but raises unless o is to move"
local gomoku_methods = mnk_methods('"black" or "white"', '"h8"', '"black"')
gomoku_methods.black = "g:black(m) -> like play, but raises unless black is to move"
gomoku_methods.white = "g:white(m) -> like play, but raises unless white is to move"

local reversi_methods = board(protocol('"black" or "white"', '"f5"'), "d4", '"white"')
reversi_methods.black = 'g:black(m) -> like play, but raises unless black is to '
  .. 'move; g:black("f5"):white("d6") chains'
reversi_methods.white = "g:white(m) -> like play, but raises unless white is to move"
reversi_methods.pass = 'g:pass([side]) -> a new game after the pass of the side '
  .. 'to move; raises when it has a move'
reversi_methods.black_pass = "g:black_pass() -> g:pass(\"black\")"
reversi_methods.white_pass = "g:white_pass() -> g:pass(\"white\")"
reversi_methods.result = "g:result() -> nil while playing, else {winner=, draw=, "
  .. "score={black=, white=}}"
reversi_methods.count = "g:count() -> {black=, white=}: the discs now"
reversi_methods.bitboards = 'g:bitboards(["turn"]) -> black\'s and white\'s discs '
  .. '(the side to move\'s first with "turn"): a1 = bit 0, h8 = bit 63'
reversi_methods.size = "g:size() -> 4, 6 or 8"
reversi_methods.save = 'g:save() -> the transcript, "f5d6c3..." (passes left '
  .. "out but a last one), after the start's board string when it is not the 8x8 start"
reversi_methods.board_string = 'g:board_string() -> "---...XO--- X": cells a1 '
  .. "to h8 (X black, O white, - empty), then the side to move"
reversi_methods.solve = "g:solve{all=, time=, nodes=, progress=} -> exact final disc "
  .. "difference for the side to move (empties to the winner), best move, info; "
  .. "all=true: {move=score, ...}, info"
reversi_methods.search = "g:search{depth=, time=1, nodes=, exact=14} -> move, "
  .. "score in discs, info {depth, nodes, seconds, pv, exact, stopped}: alpha-beta with "
  .. "the evaluation, the exact solver from exact empties on"
local xiangqi_methods = protocol('"red" or "black"', '"h2e2"')
xiangqi_methods.move = 'g:move(m) or g:move(from, to) -> a new game with the move '
  .. 'played: m in ICCS ("h2e2", "H2-E2"), WXF ("C2.5") or Chinese ("炮二平五"), '
  .. 'or two points ("h2", "e2")'
xiangqi_methods.red = 'g:red(m) or g:red(from, to) -> like move, but raises unless '
  .. 'red is to move'
xiangqi_methods.black = 'g:black(m) or g:black(from, to) -> like move, but raises '
  .. 'unless black is to move'
xiangqi_methods.moves = 'g:moves(["iccs" | "wxf" | "chinese"]) -> the legal moves, '
  .. 'in a stable order, ICCS unless told'
xiangqi_methods.result = "g:result() -> nil while playing, else {winner=, draw=, "
  .. "reason=}: checkmate, stalemate (a loss too), perpetual check or chase, "
  .. "repetition, move limit"
xiangqi_methods.save = 'g:save() -> the moves, or "<fen> moves ..." for a game '
  .. "that began elsewhere: what load() reads back"
xiangqi_methods.fen = "g:fen() -> the position as FEN"
xiangqi_methods.in_check = 'g:in_check(["red" | "black"]) -> whether that side '
  .. "(the side to move) is in check"
xiangqi_methods.at = 'g:at("e0") -> {side="red", piece="king", char="帅", '
  .. 'letter="K"}, or nil for an empty point'
xiangqi_methods.pieces = "g:pieces([side]) -> an iterator: for point, piece in "
  .. "g:pieces() do ... end, rank 0 first"
xiangqi_methods.count = "g:count() -> {red=, black=}: the pieces now"
xiangqi_methods.attacks = 'g:attacks(point [, side]) -> the points of the pieces '
  .. "that attack it (side's, or the other side's than the one standing there)"
xiangqi_methods.is_checkmate = "g:is_checkmate() -> in check with no legal move"
xiangqi_methods.is_stalemate = "g:is_stalemate() -> no legal move, not in check "
  .. "(the side to move loses)"
xiangqi_methods.notation = 'g:notation(m, "iccs" | "wxf" | "chinese") -> the '
  .. "legal move m (any notation) written in the other"
xiangqi_methods.draw = 'g:draw(["chinese" | "ascii"]) -> the board as tostring '
  .. "draws it, or in FEN letters"
xiangqi_methods.pgn = 'g:pgn{notation="iccs" | "wxf" | "chinese", tags=, result=} '
  .. "-> the game as PGN text, from its start: tags, [FEN] when not the standard "
  .. "start, the moves, the result (given, else [Result], else the game's own)"
xiangqi_methods.search = "g:search{depth=, time=, nodes=, stop_on_input=, keep=} -> "
  .. "{move, score, mate, pv, depth, nodes, nps, seconds, stopped}: the engine's "
  .. "PVS (1 s unless told); stop_on_input: a line on stdin stops it; keep: the "
  .. "table of the last search with keep, as engines keep theirs between moves"

local modules = {
  tictactoe = {
    summary = "3x3 tic-tac-toe: x moves first, squares a1..c3 (column, row)",
    functions = {
      new = "tictactoe.new() -> the empty board, x to move",
      load = "tictactoe.load(text) -> the game after moves like 'b2 a1', "
        .. "or nil, message",
      solve = "tictactoe.solve(g) -> value for the side to move (1 win, "
        .. "0 draw, -1 loss), a best move",
    },
    methods = tictactoe_methods,
  },
  connect4 = {
    summary = "Connect Four, 7x6 or any width <= 9 with width*(height+1) <= 64; yellow first",
    functions = {
      new = "connect4.new{width=7, height=6} -> the empty board, yellow to move",
      load = 'connect4.load("4453" [, {width=, height=}]) -> the game after '
        .. "those columns, or nil, message",
      from_rows = "connect4.from_rows(rows [, to_move]) -> the position in a "
        .. "picture, top row first, or nil, message",
      book = "connect4.book([path | false]) -> {path, width, height, plies, "
        .. "entries} of the opening book in use (loads path; false: none), "
        .. "or nil, message",
      make_book = "connect4.make_book(path, {plies=12, exact=0, width=7, "
        .. "height=6, nodes=, time=, progress=}) -> a new opening book, "
        .. "written and in use, or nil, message",
    },
    methods = connect4_methods,
  },
  mnk = {
    summary = "the m,n,k-game in C: k in a row wins on an m x n board (3,3,3 default)",
    functions = {
      new = "mnk.new{m=3, n=m, k=min(m, n), exact=false} -> the empty board, x to move; "
        .. "exact: longer lines do not win",
      load = "mnk.load(text [, options]) -> the game after moves like 'b2 a1', "
        .. "or nil, message",
    },
    methods = mnk_methods_x,
  },
  gomoku = {
    summary = "gomoku in C: five in a row on 15x15, black first (the m,n,k core)",
    functions = {
      new = "gomoku.new{size=15, exact=false} -> the empty board, black to move; "
        .. "exact: an overline does not win",
      load = "gomoku.load(text [, options]) -> the game after moves like 'h8 j9', "
        .. "or nil, message",
    },
    methods = gomoku_methods,
  },
  reversi = {
    summary = "Reversi (Othello) on 4x4, 6x6 or 8x8; black first, squares a1 "
      .. "(top left) to h8",
    functions = {
      new = "reversi.new{size=8} -> the start position, black to move",
      load = 'reversi.load(text [, {size=}]) -> the game after a transcript '
        .. '("f5d6c3", passes implicit) or from a board string, or nil, message',
      perft = "reversi.perft(g, depth) -> leaves depth plies ahead (a pass is a "
        .. "ply, a finished game a leaf)",
      read = 'reversi.read(path | text | file [, {format=, size=, name=}]) -> an '
        .. 'iterator of records {game=, moves=, id=, black=, ...} of a .wtb, GGF, OBF '
        .. 'or transcripts; a bad one gives false, message, id; a source that cannot '
        .. 'be read raises, as io.lines does',
      write = 'reversi.write(path or file, games [, {format=, year=, depth=}]) -> '
        .. 'the count written as wtb, ggf, obf or transcript, and the messages of '
        .. 'those skipped; games: a list or an iterator of games or records',
    },
    methods = reversi_methods,
  },
  xiangqi = {
    summary = "xiangqi (Chinese chess): full rules, FEN, ICCS/WXF/Chinese moves, "
      .. "perft, a search; red first",
    functions = {
      new = "xiangqi.new{rules=true, repetition=, move_limit=} -> the start "
        .. "position, red to move; rules=false: no repetition or 60-move rule",
      load = 'xiangqi.load(text [, options]) -> a FEN, a FEN or "startpos" then '
        .. '"moves ...", moves from the start in any notation, or one PGN game; '
        .. "or nil, message",
      read = 'xiangqi.read(path or text [, {format="pgn" | "epd" | "fen", '
        .. 'encoding="auto" | "utf-8" | "gbk" | "big5", name=, rules=}]) -> an '
        .. "iterator of records: {game, tags, result, moves, id, line, encoding} for "
        .. "PGN, {game, bm, am, dm, id, ops, moves, line} for EPD and FEN lines; "
        .. "false, message, record for one it cannot read",
      write = 'xiangqi.write(path, records [, {format="pgn" | "epd" | "fen", '
        .. 'notation="iccs" | "wxf" | "chinese"}]) -> how many were written (records: '
        .. "a game, a record, a list of them or read's iterator; the format by the "
        .. "path's extension), or nil, message",
      perft = "xiangqi.perft(g, depth) -> leaves of the legal move tree "
        .. "(repetition rules ignored)",
      divide = "xiangqi.divide(g, depth) -> {move = leaves below it}, total",
    },
    methods = xiangqi_methods,
  },
  ai = {
    summary = "searches and AI players for every game, C or Lua-defined",
    functions = {
      search = "ai.search(g, {algorithm=\"alphabeta\", ...}) -> info {move, score, mate, "
        .. "depth, nodes, nps, seconds, pv, exact, stopped, lua_calls}: the options "
        .. "of ai[algorithm] (\"mcts\": playouts=, c=, seed=)",
      alphabeta = "ai.alphabeta{depth=, time=1, nodes=, eval=, tt=16} -> a player: "
        .. "alpha-beta, iterative deepening, table of tt MiB",
      mcts = "ai.mcts{playouts=10000, time=, c=1.41, seed=} -> a player: UCT with "
        .. "random playouts",
      greedy = "ai.greedy{eval=} -> a player that looks one move ahead",
      random = "ai.random{seed=} -> a player that picks any legal move",
      uci = 'ai.uci{command=, options=, go="movetime 1000", name=, ranks=, margin=1, '
        .. "timeout=60} -> a player: a UCI engine in a process of its own (xiangqi); "
        .. "p:close() stops it, p:pid(); a dead, hung or illegal engine forfeits",
    },
    methods = {
      choose = "p:choose(g) -> the move p picks; p.info says how it searched",
      new_game = "p:new_game() -> forgets what p learnt (its table)",
    },
  },
  game = {
    summary = "games written in Lua: game.define(spec) -> a game module; examples to "
      .. "copy: require 'ludus.variants.mnk', 'ludus.players.minimax'",
    functions = {
      define = "game.define{name=, sides=, new=, turn=, moves=, play= or push=/pop=, "
        .. "is_over=, result=, [hash=, eval=, copy=, tostring=, doc=]} -> a game "
        .. "module; doc is the line help(G) shows",
    },
  },
  sudoku = {
    summary = "Sudoku 4x4 to 64x64 and variants: parse, solve, count, generate, hints",
    functions = {
      parse = "sudoku.parse(text_or_table [, {symbols=, box={r, c}, rules=}]) -> "
        .. "puzzle, its symbols; or nil, message",
      variant = "sudoku.variant{name=, size=9, box=, diagonals=, windows=, "
        .. "regions=, units=, cages=, even=, odd=, thermos=, arrows=, consecutive=, "
        .. "nonconsecutive=, white=, black=, alldots=, less=, different=, "
        .. "antiknight=, antiking=, check=, partial=} "
        .. "-> rules for parse and generate (v:parse(text), v:generate{...}); "
        .. "or nil, message",
      solve = "sudoku.solve(p) -> the solution as a puzzle, or nil, \"no solution\"",
      solutions = "sudoku.solutions(p [, limit]) -> a list of up to limit "
        .. "solutions (all by default, at most 100000)",
      count = "sudoku.count(p [, limit]) -> the number of solutions, at most limit",
      is_unique = "sudoku.is_unique(p) -> true, or false and why",
      generate = "sudoku.generate{size=9, box=, seed=, clues=, symmetric=, "
        .. "minimal=, rules=} -> a puzzle with one solution, the seed",
      hint = "sudoku.hint(p) -> the next logical step in words and as "
        .. "{row, col, value, technique}; nil, why when there is none",
      candidates = "sudoku.candidates(p) -> c[row][col]: the values its row, "
        .. "column and box leave each cell",
    },
    methods = {
      get = "p:get(row, col) -> the value there, 0 when empty",
      set = "p:set(row, col, value) -> p, changed in place (0 or '.' empties); "
        .. "raises on a clash",
      to_string = "p:to_string() -> the grid on one line, '.' for empty",
      is_solved = "p:is_solved() -> true when full and no row, column or box repeats",
      size = "p:size() -> the side: 4 to 64",
      box = "p:box() -> rows, cols: the shape of a box (2, 3 on a 6x6)",
      symbols = 'p:symbols() -> the symbols of values 1, 2 ... ("123456789"), '
        .. 'or "numbers"',
      givens = "p:givens() -> the number of filled cells",
      copy = "p:copy() -> an independent copy",
      solve = "p:solve() -> as sudoku.solve",
      solutions = "p:solutions([limit]) -> as sudoku.solutions",
      count = "p:count([limit]) -> as sudoku.count",
      is_unique = "p:is_unique() -> as sudoku.is_unique",
      hint = "p:hint() -> as sudoku.hint",
      candidates = "p:candidates() -> as sudoku.candidates",
    },
  },
  mahjong = {
    summary = "riichi mahjong hands: parse, readings, shanten, waits, yaku and points",
    functions = {
      tiles = 'mahjong.tiles("234p45688s") -> the tiles as a sorted list '
        .. '({"2p", "3p", ...}; red fives "0m"), or nil, message',
      decompose = 'mahjong.decompose(hand) -> every reading of a complete hand: '
        .. '{pair="8s", melds={"234m", ...}}, {form="chiitoitsu", pairs=}, '
        .. '{form="kokushi"}; {} if not complete',
      shanten = 'mahjong.shanten(hand [, "regular"|"chiitoitsu"|"kokushi"]) -> '
        .. "tiles from ready (0; -1 complete), the least of the forms by default",
      waits = "mahjong.waits(hand13) -> the winning tiles, {tile = copies unseen}, "
        .. "their sum, the shanten (no tiles unless ready)",
      read = "mahjong.read(path) -> the games of a Tenhou log (mjlog or tenhou.net/6 JSON), "
        .. "each replayed: {names, rounds (events with the hand after each), scores, points, "
        .. "agrees, disagreements}, or nil, message",
      discards = "mahjong.discards(hand14) -> {discard=, shanten=, accepted=, "
        .. "counts=, total=} for each tile to let go, best first",
      ranked_discards = "mahjong.ranked_discards(hand14 [, tiles]) -> the tiles to let go "
        .. "as names, best first as discards ranks them (a plain five before a red one); "
        .. "with tiles, only those",
      score = "mahjong.score(hand, {win=, tsumo=, riichi=, seat=, round=, dora=, "
        .. "ura= (with riichi), melds=, honba=, kyoutaku=, rules=, ...}) -> {han, fu, yaku, "
        .. 'yakuman, points, limit, decomposition, fu_details}, or nil, "mahjong: no yaku"',
      table = "mahjong.table{players={a, b, c, d}, seed=, rounds=\"south\"|\"east\", rules=} "
        .. "-> a table; t:play() plays the game and returns it: {scores, places, points, "
        .. "rounds, names, seed}, game:save([path]) its record (tenhou.net/6 JSON)",
      match = "mahjong.match{players={a, b, c, d}, games=, seed=, rounds=, rules=} -> "
        .. "{players (place, points, score, wins, deal_ins, seats), games, rounds}, "
        .. "seats rotated from game to game",
    },
    methods = {
      play = "t:play() -> the game played to its end (see mahjong.table); after a "
        .. "player's error, on from the question it stopped at",
      seed = "t:seed() -> the seed its walls are dealt from (the clock's when not given)",
      save = "game:save([path]) -> the game's record as tenhou.net/6 JSON; with path, "
        .. "written there: true, or nil, message",
    },
  },
  match = {
    summary = "match(G, a, b, {games=, swap=, opening=, seed=, concurrency=, tc=, st=, "
      .. "sprt=, out=, resume=, shard=}) -> score, Elo, pentanomial, SPRT, records",
    functions = {
      elo = "match.elo(wins, draws, losses) -> Elo difference, low, high (95%)",
      pentanomial = "match.pentanomial({n0, n1/2, n1, n3/2, n2}) -> Elo difference, "
        .. "low, high (95%) from the pairs' scores",
      sprt = "match.sprt(counts, {elo0=, elo1=, alpha=, beta=}) -> {llr, lower, upper, "
        .. 'decision="H1"|"H0"|nil} (counts: wins, draws, losses, or the pentanomial)',
      player = 'match.player(spec, G [, seed]) -> a new player from a spec: '
        .. '"alphabeta:depth=4", "mcts", "random", "minimax:depth=3", "mine.lua"',
      tournament = "match.tournament(G, {a, b, c, ...}, {kind=\"round robin\"|\"gauntlet\", "
        .. "games=, ...}) -> {encounters, standings}",
      report = "match.report(result) -> the lines ludus match prints: score, Elo, "
        .. "pentanomial, endings, SPRT",
      table = "match.table(tournament) -> the standings as a table of text",
      merge = "match.merge({file, ...}) -> the results of the JSON lines of a match "
        .. "or of its shards, one per pair of players; the lines; what they show "
        .. "is missing (games, shards), or nil",
    },
  },
}

modules.ludus = {
  summary = "the module table: every module as a field, and version, games, isatty",
  functions = {
    isatty = 'ludus.isatty(["stdin" | "stdout" | "stderr"]) -> whether it is a '
      .. "terminal (stdout unless told)",
    pretty = "ludus.pretty(v) -> v as a person would write it: what the REPL prints",
    interrupted = "ludus.interrupted() -> whether Ctrl-C stopped a job since the "
      .. "prompt (taking the interrupt over): a Lua loop of jobs stops on it",
    check_options = 'ludus.check_options(options, "name name ...", where) -> '
      .. "options ({} for nil), or an error naming where, the option and the "
      .. "names it takes: for Lua functions that take options",
  },
}

modules.help = {
  summary = "help() lists the modules; help(x) the functions and methods of x; "
    .. 'help("word") every line that mentions the word',
  functions = {
    text = "help.text(x) -> what help(x) writes, as a string",
  },
}

return setmetatable(modules, {__index = {protocol = protocol}})
