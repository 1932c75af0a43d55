-- Publishes a version of ratelimit.yaml in one atomic step, so that no reader ever finds a current
-- version without its content, and two pushes at once get two numbers.
-- KEYS[1] = <tag>:seq, KEYS[2] = <tag>:current, KEYS[3] = <tag>:history, where <tag> is
-- {<key_prefix>:rules}: one Redis Cluster slot for all of them and for each version's hash,
-- <tag>:v:<n>, whose name ARGV[1] begins. ARGV[2] = the content, ARGV[3] = its rules version,
-- ARGV[4] = who, ARGV[5] = from where, ARGV[6] = the message, ARGV[7] = the version rolled back to
-- ("0" for a push), ARGV[8] = how many versions to keep, ARGV[9] = the number of the version the
-- new one is based on, which must be current ("0": none published), or "-1" for whatever is.
-- Returns the new version's number, 0 when the current version has this content already, or -1
-- when the version it is based on is not current (nothing is published).
local current = redis.call('GET', KEYS[2])
if ARGV[9] ~= '-1' and (current or '0') ~= ARGV[9] then
  return -1
end
if current and redis.call('HGET', ARGV[1] .. current, 'content') == ARGV[2] then
  return 0
end
local n = redis.call('INCR', KEYS[1])
local t = redis.call('TIME')
local millis = t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000))
redis.call('HSET', ARGV[1] .. n, 'content', ARGV[2], 'rules_version', ARGV[3], 'millis', millis,
  'who', ARGV[4], 'where', ARGV[5], 'message', ARGV[6], 'rollback_of', ARGV[7])
redis.call('SET', KEYS[2], n)
redis.call('LPUSH', KEYS[3], n)
local keep = tonumber(ARGV[8])
for _, old in ipairs(redis.call('LRANGE', KEYS[3], keep, -1)) do
  redis.call('DEL', ARGV[1] .. old)
end
redis.call('LTRIM', KEYS[3], 0, keep - 1)
return n
