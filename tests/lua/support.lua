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

return support
