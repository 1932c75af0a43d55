-- Every state is one decimal integer, which Redis keeps as a 64-bit integer: 16 bytes a key less
-- than a string. So window indexes are kept modulo 10^4. A key lives at most two windows and a
-- second, so the stored index is the one within 5,000 windows of now: behind it, or ahead of it
-- when the clock of Redis stepped back (a failover to a replica whose clock is behind).
local INDEX_MOD = 10000

local function stored_index(current, stored_mod)
  local behind = (current - stored_mod) % INDEX_MOD
  if behind > INDEX_MOD / 2 then
    return current - behind + INDEX_MOD
  end
  return current - behind
end
