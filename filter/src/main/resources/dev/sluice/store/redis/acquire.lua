-- Takes permits of several rules for one identity, all or none, in one round trip; and when
-- several requests of the same identity arrive together, decides them all, in order, in one run:
-- exactly as if each had been its own script call, at a fraction of the cost on a hot key.
-- KEYS share the identity's hash tag, so they live on one Redis Cluster slot and this runs
-- atomically. ARGV[1]: the time argument of time.lua ("0": Redis TIME); ARGV[2]: the number of
-- groups of alike requests; then per group: how many requests, and their six values per key:
-- algorithm (f, s or t), limit, window, emission, tolerance, cost. Returns four integers per key
-- per request: allowed (1 or 0), remaining, reset, retry-after (microseconds). A key is only ever
-- written with its TTL.
local now = script_now(ARGV[1])
local algorithms = { f = fixed_window, s = sliding_window, t = token_bucket }
local keys = #KEYS
local states, ttls = {}, {}
for i, key in ipairs(KEYS) do
  states[i] = redis.call('GET', key)
end
local out = {}
local changed = false
local a = 3
for g = 1, tonumber(ARGV[2]) do
  local group = {}
  for i = 1, keys do
    local v = a + 1 + (i - 1) * 6
    group[i] = { algorithms[ARGV[v]], tonumber(ARGV[v + 1]), tonumber(ARGV[v + 2]),
      tonumber(ARGV[v + 3]), tonumber(ARGV[v + 4]), tonumber(ARGV[v + 5]) }
  end
  for r = 1, tonumber(ARGV[a]) do
    local next_states, next_ttls, all = {}, {}, true
    for i = 1, keys do
      local k = group[i]
      local allowed, remaining, reset, retry, state, idle_at =
        k[1](states[i], now, k[2], k[3], k[4], k[5], k[6])
      all = all and allowed
      out[#out + 1] = allowed and 1 or 0
      out[#out + 1] = math.max(0, remaining)
      out[#out + 1] = math.max(0, reset)
      out[#out + 1] = allowed and 0 or math.max(1, retry)
      next_states[i] = state
      -- Expire a second after the state equals a fresh one: never a moment early, whatever the
      -- clock of the server that expires it (a replica after a failover runs its own).
      next_ttls[i] = math.max(0, math.ceil((idle_at - now) / 1000)) + 1000
    end
    if all then
      states, ttls, changed = next_states, next_ttls, true
    end
  end
  a = a + 1 + keys * 6
end
if changed then
  for i, key in ipairs(KEYS) do
    redis.call('SET', key, states[i], 'PX', string.format('%d', ttls[i]))
  end
end
return out
