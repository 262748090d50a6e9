-- match_stats.lua: what a match's results say: the Elo difference with
-- its interval, from games (trinomial: win, draw, loss) or from pairs of
-- games that share an opening with the colours swapped (pentanomial: the
-- pair scores 0, 1/2, 1, 3/2, 2), and the sequential probability ratio
-- test (SPRT) that fishtest runs to stop a match once it has an answer.
-- ludus.match gives these as match.elo, match.pentanomial and match.sprt.
--
-- Both statistics see a match as N independent draws of a score x in
-- [0, 1] (a game's score, or half a pair's), with empirical frequencies
-- f_i of the values x_i: mean m = sum f_i x_i and variance
-- v = sum f_i (x_i - m)^2.
--
-- Elo: the logistic model; a mean score m is worth 400 log10(m / (1 - m))
-- Elo, and the 95% interval is m -/+ 1.959964 sqrt(v / N) converted the
-- same way.
--
-- SPRT: the generalised SPRT (GSPRT) that fishtest runs, after Michel
-- Van den Bergh's notes on it: with s0 and s1 the scores that elo0 and
-- elo1 give, the log-likelihood ratio is
--   LLR = N sum_i f_i log(p1_i / p0_i)
-- where p_s is the distribution on the same outcomes closest to the
-- observed one (its maximum likelihood estimate) whose mean is s:
-- p_i = f_i / (1 + t (x_i - s)), t the root of
--   sum_i f_i (x_i - s) / (1 + t (x_i - s)) = 0,
-- which decreases in t (found by bisection).  The test stops when LLR
-- leaves [log(beta / (1 - alpha)), log((1 - beta) / alpha)]: above, H1
-- (elo1) is accepted, below, H0.  As fishtest does, an outcome never
-- seen counts as 0.001 of one, so that p_i can follow the mean.  For
-- many games the LLR is close to N (s1 - s0) (2 m - s0 - s1) / (2 v), the
-- approximation fishtest's documents quote (stats.sprt_approximation).

local stats = {}

local Z95 = 1.959964    -- the normal distribution's two-sided 95% point
local EPSILON = 1e-3    -- what an empty outcome counts for in the SPRT

-- The Elo of a mean score; an end at or past 0 or 1 is an infinity.
function stats.elo_of(p)
  if p <= 0 then return -math.huge end
  if p >= 1 then return math.huge end
  return 400 * math.log(p / (1 - p), 10)
end

-- The score the Elo difference e gives in the logistic model.
function stats.score_of(e)
  return 1 / (1 + 10 ^ (-e / 400))
end

-- Mean and variance of scores values[i] drawn counts[i] times; n the
-- draws.
local function moments(values, counts)
  local n, sum = 0, 0
  for i, c in ipairs(counts) do
    n = n + c
    sum = sum + c * values[i]
  end
  if n == 0 then return 0, 0, 0 end
  local mean, variance = sum / n, 0
  for i, c in ipairs(counts) do variance = variance + c * (values[i] - mean) ^ 2 end
  return n, mean, variance / n
end

-- Elo, low and high (95%) of scores values[i] drawn counts[i] times.
local function interval(values, counts)
  local n, mean, variance = moments(values, counts)
  local margin = Z95 * math.sqrt(variance / n)
  return stats.elo_of(mean), stats.elo_of(mean - margin), stats.elo_of(mean + margin)
end

local GAME_SCORES = {1, 0.5, 0}                  -- win, draw, loss
local PAIR_SCORES = {0, 0.25, 0.5, 0.75, 1}      -- half a pair's score

-- Elo, low and high from wins, draws and losses.
function stats.elo(wins, draws, losses)
  return interval(GAME_SCORES, {wins, draws, losses})
end

-- Elo, low and high from the pentanomial counts: pairs that scored 0,
-- 1/2, 1, 3/2 and 2 points.
function stats.pentanomial_elo(counts)
  return interval(PAIR_SCORES, counts)
end

-- The pentanomial counts from a's scores in the games of each pair
-- (a list of {score1, score2}).
function stats.pentanomial(pairs)
  local counts = {0, 0, 0, 0, 0}
  for _, pair in ipairs(pairs) do
    local i = math.tointeger((pair[1] + pair[2]) * 2) + 1
    counts[i] = counts[i] + 1
  end
  return counts
end

-- The distribution nearest f (frequencies of values) with mean s.
local function nearest_with_mean(values, f, s)
  local low, high = -math.huge, math.huge
  for _, x in ipairs(values) do      -- 1 + t (x - s) > 0 for every value
    if x > s then low = math.max(low, -1 / (x - s)) end
    if x < s then high = math.min(high, 1 / (s - x)) end
  end
  local function g(t)
    local sum = 0
    for i, x in ipairs(values) do sum = sum + f[i] * (x - s) / (1 + t * (x - s)) end
    return sum
  end
  for _ = 1, 200 do
    local t = (low + high) / 2
    if g(t) > 0 then low = t else high = t end
  end
  local t = (low + high) / 2
  local p = {}
  for i, x in ipairs(values) do p[i] = f[i] / (1 + t * (x - s)) end
  return p
end

local function sprt_inputs(counts, bounds)
  local values = #counts == 5 and PAIR_SCORES or GAME_SCORES
  local regular, n = {}, 0
  for i, c in ipairs(counts) do
    regular[i] = c > 0 and c or EPSILON
    n = n + c
  end
  return values, regular, n, stats.score_of(bounds.elo0), stats.score_of(bounds.elo1)
end

local function verdict(llr, bounds)
  local lower = math.log(bounds.beta / (1 - bounds.alpha))
  local upper = math.log((1 - bounds.beta) / bounds.alpha)
  local decision
  if llr >= upper then decision = "H1" elseif llr <= lower then decision = "H0" end
  return {llr = llr, lower = lower, upper = upper, decision = decision}
end

-- The test on counts (3 of them: wins, draws, losses; or 5: the
-- pentanomial), with bounds = {elo0 =, elo1 =, alpha =, beta =}.
-- Returns {llr =, lower =, upper =, decision = "H1" | "H0" | nil}.
function stats.sprt(counts, bounds)
  local values, regular, n, s0, s1 = sprt_inputs(counts, bounds)
  if n == 0 then return verdict(0, bounds) end
  local total = 0
  for _, c in ipairs(regular) do total = total + c end
  local f = {}
  for i, c in ipairs(regular) do f[i] = c / total end
  local p0 = nearest_with_mean(values, f, s0)
  local p1 = nearest_with_mean(values, f, s1)
  local llr = 0
  for i = 1, #f do llr = llr + f[i] * math.log(p1[i] / p0[i]) end
  return verdict(n * llr, bounds)
end

-- The same with the LLR of the normal approximation.
function stats.sprt_approximation(counts, bounds)
  local values, regular, n, s0, s1 = sprt_inputs(counts, bounds)
  if n == 0 then return verdict(0, bounds) end
  local _, mean, variance = moments(values, regular)
  return verdict(n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance), bounds)
end

return stats
