-- match_runner.lua: the games of a match, each in a process of its own
-- (ludus.process), so many at once, and so that a player that crashes
-- the process or hangs loses its game, not the match.
--
-- A game's process sends the parent lines:
--   turn <TAB> letter <TAB> seconds <TAB> record
--       before each move: whose move it is ("a" or "b"), how long it may
--       take before the parent kills the process ("-": no limit), and the
--       game so far; the parent keeps the last one;
--   done <TAB> JSON
--       the game's record, at the end;
--   error <TAB> message
--       the game could not be played (not a player's fault).
-- Results are handed on in the order of the games, whatever order they
-- finish in: a run is the same with one process at a time or many, and
-- an SPRT stops at the same game.

local process = require("ludus.process")

local runner = {}

-- Seconds the parent waits past a move's time before it kills a game.
runner.GRACE = 0.5

-- run{count =, concurrency =, play =, finish =, commit =, interrupted =,
-- prepare =}:
-- plays games 1 to count, at most concurrency at once.  play(i, send)
-- runs in the game's process; finish(i, done, turn, how) in this one
-- turns what came back into a result: done is the "done" line's JSON
-- text, or nil when the process ended without one, turn the last turn
-- (or nil) and how "exit N", "signal N (name)" or "hang S".  commit(i,
-- result) takes the results in order and returns true to stop the run.
-- prepare(i), if given, runs here before game i starts.
-- Returns "interrupted" after Ctrl-C, "stopped" when commit stopped it,
-- or nil.
function runner.run(job)
  local running, results = {}, {}
  local next_game, next_commit = 1, 1
  local stopped

  local function start(i)
    if job.prepare then job.prepare(i) end
    local child, message = process.spawn(function(send) job.play(i, send) end)
    if not child then error("match: " .. message, 0) end
    running[#running + 1] = {index = i, child = child}
  end

  local function kill_all()
    for _, r in ipairs(running) do
      r.child:kill()
      r.child:close()
    end
    running = {}
  end

  local function handle(r, lines)
    for _, line in ipairs(lines) do
      local kind, rest = line:match("^(%a+)\t(.*)$")
      if kind == "turn" then
        local letter, limit, record = rest:match("^(%a)\t([^\t]*)\t(.*)$")
        r.turn = {letter = letter, record = record}
        local seconds = tonumber(limit)
        r.deadline = seconds and process.now() + seconds + runner.GRACE or nil
        r.limit = seconds
      elseif kind == "done" then
        r.done = rest
      elseif kind == "error" then
        r.error = rest
      end
    end
  end

  local function settle(r, how)
    if r.error then
      kill_all()
      error(("match: game %d could not be played: %s"):format(r.index, r.error), 0)
    end
    results[r.index] = job.finish(r.index, r.done, r.turn, how)
  end

  local ok, err = pcall(function()
    while (next_game <= job.count and not stopped) or #running > 0 do
      while #running < job.concurrency and next_game <= job.count and not stopped do
        start(next_game)
        next_game = next_game + 1
      end
      local now, wait = process.now(), nil
      for _, r in ipairs(running) do
        if r.deadline then
          local left = math.max(0, r.deadline - now)
          if not wait or left < wait then wait = left end
        end
      end
      local children = {}
      for i, r in ipairs(running) do children[i] = r.child end
      process.wait(children, wait)
      if job.interrupted() then
        stopped = "interrupted"
        kill_all()
        break
      end
      local still = {}
      now = process.now()
      for _, r in ipairs(running) do
        local lines, ended = r.child:lines()
        handle(r, lines)
        if ended then
          local how, code, name = r.child:close()
          settle(r, how == "signal" and ("signal %d (%s)"):format(code, name)
                    or "exit " .. code)
        elseif r.deadline and now >= r.deadline then
          r.child:kill()
          r.child:close()
          r.done = nil
          settle(r, ("hang %g"):format(r.limit))
        else
          still[#still + 1] = r
        end
      end
      running = still
      while results[next_commit] ~= nil and not stopped do
        local result = results[next_commit]
        results[next_commit] = nil
        if job.commit(next_commit, result) then
          stopped = "stopped"
          kill_all()
        end
        next_commit = next_commit + 1
      end
    end
  end)
  if not ok then
    kill_all()
    if job.interrupted() then return "interrupted" end
    error(err, 0)
  end
  return stopped
end

-- run_workers{count =, concurrency =, play =, finish =, commit =,
-- interrupted =, prepare =, encode =, decode =}: the same with
-- concurrency worker processes that each run its share of the games
-- (worker w the games w, w + concurrency, ...) one at a time with run,
-- each game still in a process of its own, and send the results back
-- (encode turns one into a line, decode the line back).  What a game
-- costs to start (a fork) is then paid by the workers, on every core,
-- and this process only reads a line a game, in the order of the games.
function runner.run_workers(job)
  local n = math.min(job.concurrency, job.count)
  local workers, queues = {}, {}
  local stopped

  local function kill_all()
    for _, w in ipairs(workers) do
      w:kill()
      w:close()
    end
    workers = {}
  end

  local ok, err = pcall(function()
    for w = 1, n do
      local child, message = process.spawn(function(send)
        local mine = {}
        for i = w, job.count, n do mine[#mine + 1] = i end
        runner.run{
          count = #mine, concurrency = 1,
          interrupted = function() return false end,
          prepare = job.prepare and function(k) job.prepare(mine[k]) end,
          play = function(k, game_send) job.play(mine[k], game_send) end,
          finish = function(k, done, turn, how) return job.finish(mine[k], done, turn, how) end,
          commit = function(_, result) send("result\t" .. job.encode(result)) end,
        }
      end)
      if not child then error("match: " .. message, 0) end
      workers[w], queues[w] = child, {first = 1, last = 0, ended = false}
    end
    local next_commit = 1
    while next_commit <= job.count and not stopped do
      process.wait(workers, nil)
      if job.interrupted() then
        stopped = "interrupted"
        break
      end
      for w, child in ipairs(workers) do
        local q = queues[w]
        local lines, ended = child:lines()
        for _, line in ipairs(lines) do
          local kind, rest = line:match("^(%a+)\t(.*)$")
          if kind == "error" then error(rest, 0) end
          if kind == "result" then
            q.last = q.last + 1
            q[q.last] = rest
          end
        end
        q.ended = q.ended or ended
      end
      while next_commit <= job.count and not stopped do
        local w = (next_commit - 1) % n + 1
        local q = queues[w]
        if q.first > q.last then
          if q.ended then
            error(("match: the worker playing game %d stopped"):format(next_commit), 0)
          end
          break
        end
        local line = q[q.first]
        q[q.first] = nil
        q.first = q.first + 1
        if job.commit(next_commit, job.decode(line)) then stopped = "stopped" end
        next_commit = next_commit + 1
      end
    end
  end)
  kill_all()
  if not ok then
    if job.interrupted() then return "interrupted" end
    error(err, 0)
  end
  return stopped
end

return runner
