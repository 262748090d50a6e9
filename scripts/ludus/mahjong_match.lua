-- mahjong_match.lua: four mahjong players for N games, seats rotated
-- (mahjong.match).  Game g seats player i at seat (i - 1 + g - 1) % 4, so
-- over four games each player is the first dealer once.  Each game is a
-- mahjong.table seeded from the match's seed; the games come back with
-- the report, and each game's save() gives its record.
--
--   local report = mahjong.match{players = {a, b, c, d}, games = 8, seed = 1}
--   report.players[1].place    -- average place, 1 to 4
--   print(report)              -- the table of averages
--
-- Per player: place (average, 1 best), points (average, in thousands:
-- the final points with uma and oka), score (average final score), wins
-- and deal_ins (rates per round played), and the seats it had.

local mahjong = require("ludus.mahjong")

local report_meta = {}

function report_meta.__tostring(report)
  local lines = {string.format("mahjong match: %d games, %d rounds",
                               #report.games, report.rounds)}
  local width = 16            -- the columns stay in line past 16 (mahjong_efficiency)
  for _, p in ipairs(report.players) do width = math.max(width, utf8.len(p.name) or #p.name) end
  local function name(text)
    return text .. string.rep(" ", width - (utf8.len(text) or #text))
  end
  lines[#lines + 1] = string.format("  %s %6s %8s %8s %6s %8s", name("player"),
                                    "place", "points", "score", "wins", "deal-in")
  for _, p in ipairs(report.players) do
    lines[#lines + 1] = string.format("  %s %6.2f %+8.1f %8.0f %5.1f%% %7.1f%%",
                                      name(p.name), p.place, p.points, p.score,
                                      100 * p.wins, 100 * p.deal_ins)
  end
  return table.concat(lines, "\n")
end

local function check_options(options)
  if type(options) ~= "table" then
    error("mahjong.match: expected a table {players=, games=, seed=} (got "
          .. type(options) .. ")", 3)
  end
  for key in pairs(options) do
    -- a field misspelt (game = 8) would play another match in silence
    if key ~= "players" and key ~= "games" and key ~= "seed" and key ~= "rounds"
       and key ~= "rules" then
      error("mahjong.match: unknown field " .. (type(key) == "string" and "'" .. key .. "'"
            or type(key)) .. " (fields: players, games, seed, rounds, rules)", 3)
    end
  end
  local players = options.players
  if type(players) ~= "table" or #players ~= 4 then
    error("mahjong.match: players must be a list of four players", 3)
  end
  local function whole(x) return type(x) == "number" and math.tointeger(x) or x end
  local function shown(x) return type(x) == "string" and "'" .. x .. "'" or tostring(x) end
  local games = whole(options.games or 4)
  if math.type(games) ~= "integer" or games < 1 then
    error("mahjong.match: games must be a whole number of at least 1 (got "
          .. shown(games) .. ")", 3)
  end
  local seed = whole(options.seed or 1)     -- 8.0 is 8, as mahjong.table takes it
  if math.type(seed) ~= "integer" then
    error("mahjong.match: seed must be an integer (got " .. shown(seed) .. ")", 3)
  end
  return players, games, seed
end

local function name_of(player, i)
  if type(player) == "table" and type(player.name) == "string" then
    return player.name
  end
  return "player " .. i
end

return function(options)
  local players, ngames, seed = check_options(options)
  local stats = {}
  for i = 1, 4 do
    stats[i] = {name = name_of(players[i], i), place = 0, points = 0, score = 0,
                wins = 0, deal_ins = 0, seats = {}}
  end
  local report = {players = stats, games = {}, rounds = 0}
  for g = 1, ngames do
    local seated, who = {}, {}
    for i = 1, 4 do
      local seat = (i - 1 + g - 1) % 4
      seated[seat + 1] = players[i]
      who[seat] = i
    end
    local game = mahjong.table{players = seated, seed = seed + g - 1,
                               rounds = options.rounds, rules = options.rules}:play()
    report.games[g] = game
    report.rounds = report.rounds + #game.rounds
    for seat = 0, 3 do
      local s = stats[who[seat]]
      s.place = s.place + game.places[seat + 1]
      s.points = s.points + game.points[seat + 1] / 10
      s.score = s.score + game.scores[seat + 1]
      s.seats[g] = seat
    end
    for _, round in ipairs(game.rounds) do
      local dealt_in = {}
      for _, win in ipairs(round.wins) do
        stats[who[win.who]].wins = stats[who[win.who]].wins + 1
        if win.from ~= win.who then dealt_in[win.from] = true end
      end
      for seat in pairs(dealt_in) do
        stats[who[seat]].deal_ins = stats[who[seat]].deal_ins + 1
      end
    end
  end
  for _, s in ipairs(stats) do
    s.place = s.place / ngames
    s.points = s.points / ngames
    s.score = s.score / ngames
    s.wins = s.wins / report.rounds
    s.deal_ins = s.deal_ins / report.rounds
  end
  return setmetatable(report, report_meta)
end
