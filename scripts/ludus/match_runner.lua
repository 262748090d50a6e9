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

return runner
