-- Counts the JVMs sharing the limits: each one's member is scored with Redis TIME every beat, and
-- members silent for longer than ARGV[2] microseconds are dropped. KEYS[1] = <prefix>:fleet.
-- ARGV[1] = this JVM's member, ARGV[3] = the time argument of time.lua. Returns the fleet size.
local now = script_now(ARGV[3])
local alive = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], string.format('%d', now), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%d', now - alive))
redis.call('PEXPIRE', KEYS[1], string.format('%d', math.ceil(alive / 1000) * 2))
return redis.call('ZCARD', KEYS[1])
