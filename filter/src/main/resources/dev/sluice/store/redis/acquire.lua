-- Takes permits of several rules for one identity, all or none, in one round trip. KEYS share the
-- identity's hash tag, so they live on one Redis Cluster slot and this script runs atomically.
-- ARGV[1]: the time argument of time.lua ("0": Redis TIME).
-- Then six values per key: algorithm (f, s or t), limit, window, emission, tolerance, cost.
-- Returns four integers per key: allowed (1 or 0), remaining, reset, retry-after (microseconds).
-- Time is Redis TIME, never a client's clock; a key is only ever written with its TTL.
local now = script_now(ARGV[1])
local algorithms = { f = fixed_window, s = sliding_window, t = token_bucket }
local out, writes, all = {}, {}, true
for i, key in ipairs(KEYS) do
  local a = 2 + (i - 1) * 6
  local algorithm = algorithms[ARGV[a]]
  local allowed, remaining, reset, retry, state, idle_at = algorithm(redis.call('GET', key), now,
    tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4]),
    tonumber(ARGV[a + 5]))
  all = all and allowed
  out[#out + 1] = allowed and 1 or 0
  out[#out + 1] = math.max(0, remaining)
  out[#out + 1] = math.max(0, reset)
  out[#out + 1] = allowed and 0 or math.max(1, retry)
  -- Expire a second after the state equals a fresh one: never a moment early, whatever the
  -- clock of the server that expires it (a replica after a failover runs its own).
  writes[i] = { state, math.max(0, math.ceil((idle_at - now) / 1000)) + 1000 }
end
if all then
  for i, key in ipairs(KEYS) do
    redis.call('SET', key, writes[i][1], 'PX', string.format('%d', writes[i][2]))
  end
end
return out
