-- links.lua: every relative link of the given Markdown pages points at a
-- file that exists, and a link with #anchor at one of its headings.
--
--   lua5.4 tests/docs/links.lua README.md docs/*.md
--
-- Prints each broken link as file:line: target, and exits 1 if there is
-- one.  Links to the web (scheme:) are not followed.

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return text
end

local function directory(path)
  return path:match("^(.*)/[^/]*$") or "."
end

-- The anchors GitHub makes of a page's headings: lower case, punctuation
-- but '-' and '_' dropped, spaces as '-'.
local function anchors(text)
  local set, fenced = {}, false
  for line in text:gmatch("[^\n]*") do
    if line:match("^%s*```") then fenced = not fenced end
    local heading = not fenced and line:match("^#+%s+(.-)%s*$")
    if heading then
      local slug = heading:lower():gsub("`", ""):gsub("[^%w%- _]", ""):gsub(" ", "-")
      set[slug] = true
    end
  end
  return set
end

local broken = 0
for _, file in ipairs({...}) do
  local text = assert(read(file), "cannot read " .. file)
  local n, fenced = 0, false
  for line in (text .. "\n"):gmatch("(.-)\n") do
    n = n + 1
    if line:match("^%s*```") then fenced = not fenced end
    for target in (fenced and "" or line):gmatch("%]%(([^)%s]+)%)") do
      if not target:match("^%a[%w+.-]*:") then
        local path, anchor = target:match("^([^#]*)#?(.*)$")
        local full = path == "" and file or directory(file) .. "/" .. path
        local page = read(full)
        local ok = page ~= nil or os.rename(full, full) ~= nil   -- a folder
        if ok and anchor ~= "" then ok = page ~= nil and anchors(page)[anchor] end
        if not ok then
          broken = broken + 1
          print(("%s:%d: %s"):format(file, n, target))
        end
      end
    end
  end
end
os.exit(broken == 0 and 0 or 1)
