-- Decides requests for permits, each over several rules of one identity, all or none, exactly as
-- if each request had been its own call, in one run. Several requests of one identity arriving
-- together (a hot key) are decided in order against one read of its state; on a server without
-- cluster slots, the calls of several identities share the run as well (KEYS of an identity
-- share its hash tag, so on a cluster a run only ever holds one identity's keys, on one slot).
-- ARGV[1]: the time argument of time.lua ("0": Redis TIME); ARGV[2]: the number of calls; then
-- per call: its number of keys (the next ones of KEYS), its number of groups of alike requests,
-- and per group: how many requests, and their six values per key: algorithm (f, s or t), limit,
-- window, emission, tolerance, cost. Returns four integers per key per request, in order:
-- allowed (1 or 0), remaining, reset, retry-after (microseconds). A key is only ever written with
-- its TTL.
local now = script_now(ARGV[1])
local algorithms = { f = fixed_window, s = sliding_window, t = token_bucket }
local out = {}
local a = 3
local first_key = 1

-- Decides one call: keys first_key .. first_key + keys - 1, groups starting at ARGV[a].
local function decide(keys)
  local states, ttls = {}, {}
  for i = 1, keys do
    states[i] = redis.call('GET', KEYS[first_key + i - 1])
  end
  local changed = false
  for g = 1, tonumber(ARGV[a]) do
    a = a + 1
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
    a = a + keys * 6
  end
  if changed then
    for i = 1, keys do
      redis.call('SET', KEYS[first_key + i - 1], states[i], 'PX', string.format('%d', ttls[i]))
    end
  end
end

for c = 1, tonumber(ARGV[2]) do
  local keys = tonumber(ARGV[a])
  a = a + 1
  decide(keys)
  a = a + 1
  first_key = first_key + keys
end
return out
