-- support.lua: what the specs share.  tests/lua/helper.lua puts this
-- folder on package.path, so a spec says `require "support"`.

local assert = require("luassert")

local support = {}

-- Asserts that f(...) raises an error whose message contains every one
-- of the given pieces (plain text, not patterns).
function support.assert_raises(pieces, f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  for _, piece in ipairs(pieces) do
    assert.truthy(tostring(err):find(piece, 1, true),
                  ("'%s' not in: %s"):format(piece, tostring(err)))
  end
end

-- Whether list holds value.
function support.contains(list, value)
  for _, v in ipairs(list) do
    if v == value then return true end
  end
  return false
end

-- A seeded generator of integers in 1..n (splitmix64 steps), so a spec
-- plays the same "random" games on every run.
function support.generator(seed)
  local state = seed
  return function(n)
    state = state + 0x9e3779b97f4a7c15
    local z = state
    z = (z ~ (z >> 30)) * 0xbf58476d1ce4e5b9
    z = (z ~ (z >> 27)) * 0x94d049bb133111eb
    return (z ~ (z >> 31)) % n + 1
  end
end

return support
