-- xsudoku.lua: X-Sudoku (diagonal Sudoku).  Both long diagonals hold
-- every value once, as the rows, columns and boxes do: two extra units
-- the C solver treats like the others.
--
--   local x = require "ludus.variants.xsudoku"
--   local p = x.rules():parse(text)        -- or x.generate{seed = 1}

local sudoku = require("ludus").sudoku

local xsudoku = {}

xsudoku.help = {
  name = "xsudoku",
  summary = "X-Sudoku: both diagonals hold every value once (require "
    .. "'ludus.variants.xsudoku')",
  functions = {
    rules = "xsudoku.rules([{size=, box=}]) -> the variant",
    generate = "xsudoku.generate{size=9, seed=, ...} -> a minimal puzzle with one solution; "
      .. "the options of sudoku.generate (clues=, symmetric=, ...)",
  },
}

function xsudoku.rules(options)
  if options ~= nil and type(options) ~= "table" then
    error("xsudoku.rules: options must be a table (got " .. type(options) .. ")", 2)
  end
  options = options or {}
  for key in pairs(options) do
    if key ~= "size" and key ~= "box" then
      error("xsudoku.rules: it takes the options size and box (got '"
            .. tostring(key) .. "')", 2)
    end
  end
  return sudoku.variant{name = "X", diagonals = true, size = options.size,
                        box = options.box}
end

-- The options are those of sudoku.generate, which refuses any other.
function xsudoku.generate(options)
  if options ~= nil and type(options) ~= "table" then
    error("xsudoku.generate: options must be a table (got " .. type(options) .. ")", 2)
  end
  local o = {}
  for key, value in pairs(options or {}) do o[key] = value end
  o.rules = assert(xsudoku.rules{size = o.size, box = o.box})
  return sudoku.generate(o)
end

return xsudoku
