-- "Now" for every script: Redis TIME in microseconds, one clock for the whole fleet, so JVM clocks
-- never matter. The argument is "0" in production; tests dictate an exact time with "=<micros>".
local function script_now(arg)
  if string.sub(arg, 1, 1) == '=' then
    return tonumber(string.sub(arg, 2))
  end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000000 + tonumber(t[2]) + tonumber(arg)
end
