-- helper.lua: loaded by busted before the specs (see .busted).  The specs
-- test the ludus.so of the build being tested: ./ludus.so, or the one in
-- LUDUS_BIN_DIR (build/san under SANITIZE=1).
local bin = os.getenv("LUDUS_BIN_DIR") or "."
package.cpath = bin .. "/?.so;" .. package.cpath
package.path = "tests/lua/?.lua;" .. package.path
