-- luacheck configuration: Lua 5.4, busted's globals in the specs.
std = "lua54"
max_line_length = 100
files["tests/lua"] = { std = "+busted" }
