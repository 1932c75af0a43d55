-- Decides requests for permits, each over several rules of one identity, all or none, exactly as
-- if each request had been its own call, in one run. Several requests of one identity arriving
-- together (a hot key) are decided in order against one read of its state; on a server without
-- cluster slots, the calls of several identities share the run as well (KEYS of an identity
-- share its hash tag, so on a cluster a run only ever holds one identity's keys, on one slot).
-- ARGV[1]: the time argument of time.lua ("0": Redis TIME); ARGV[2]: the number of calls; then
-- per call: its number of keys (the next ones of KEYS), its number of groups of alike requests,
-- and per group: how many requests, and their six values per key: algorithm (f, s or t), limit,
-- window, emission, tolerance, cost. Returns four integers per key per request, in order:
-- allowed (1 or 0), remaining, reset (microseconds), and the retry-after (microseconds) when
-- denied, or when allowed the take: the first number of the state it left (the window index it
-- counted in, or the bucket's TAT), which is how refund.lua finds it again; a call one of whose
-- keys holds another type is answered -1, 0, 0, 0 for each of its keys and requests. A key is only
-- ever written with its TTL.
local now = script_now(ARGV[1])
local reads = { f = fixed_window_read, s = sliding_window_read, t = token_bucket_read }
local steps = { f = fixed_window, s = sliding_window, t = token_bucket }
local writes = { f = fixed_window_write, s = sliding_window_write, t = token_bucket_write }
local out, o = {}, 0
local a = 3
local first_key = 1

-- What deciding a call keeps per key, in one table reused by every call of the run (a script that
-- makes tables per key or per request spends more on them than on deciding): key i's fields start
-- at (i - 1) * FIELDS. Its state as text (STATE) and as numbers (X, Y, Z) with the instant it
-- becomes idle (IDLE); the same after the request being decided (NX .. NIDLE); its TTL to set;
-- its group's algorithm (CODE) and values (LIMIT .. COST).
local STATE, X, Y, Z, IDLE, NX, NY, NZ, NIDLE, TTL = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
local CODE, LIMIT, WINDOW, EMISSION, TOLERANCE, COST = 11, 12, 13, 14, 15, 16
local FIELDS = 16
-- Made with room for one key's fields: a table grown one field at a time rehashes four times.
local k = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

-- Answers every request of a call that cannot be decided (a key of another type) with -1 where
-- allowed goes, and steps over its groups. Nothing of the call is written, and the other calls of
-- the run are decided all the same: had the error stopped the script, the calls before it would
-- have counted without an answer, and sending them once more would count them twice.
local function refuse(keys)
  for g = 1, tonumber(ARGV[a]) do
    a = a + 1
    for r = 1, tonumber(ARGV[a]) do
      for i = 1, keys do
        out[o + 1], out[o + 2], out[o + 3], out[o + 4] = -1, 0, 0, 0
        o = o + 4
      end
    end
    a = a + keys * 6
  end
end

-- Decides one call: keys first_key .. first_key + keys - 1, groups starting at ARGV[a]. A key's
-- state is parsed once per group and written once per call, whatever the number of requests.
local function decide(keys)
  for i = 1, keys do
    local state = redis.pcall('GET', KEYS[first_key + i - 1])
    if type(state) == 'table' and state.err then
      return refuse(keys)
    end
    k[(i - 1) * FIELDS + STATE] = state
  end
  local changed = false
  for g = 1, tonumber(ARGV[a]) do
    a = a + 1
    for i = 1, keys do
      local b, v = (i - 1) * FIELDS, a + 1 + (i - 1) * 6
      k[b + CODE], k[b + LIMIT], k[b + WINDOW] = ARGV[v], tonumber(ARGV[v + 1]), tonumber(ARGV[v + 2])
      k[b + EMISSION], k[b + TOLERANCE], k[b + COST] =
        tonumber(ARGV[v + 3]), tonumber(ARGV[v + 4]), tonumber(ARGV[v + 5])
      k[b + X], k[b + Y], k[b + Z] = reads[k[b + CODE]](k[b + STATE], now, k[b + WINDOW])
    end
    local moved = false
    for r = 1, tonumber(ARGV[a]) do
      local all = true
      for i = 1, keys do
        local b = (i - 1) * FIELDS
        local allowed, remaining, reset, retry
        allowed, remaining, reset, retry, k[b + NIDLE], k[b + NX], k[b + NY], k[b + NZ] =
          steps[k[b + CODE]](k[b + X], k[b + Y], k[b + Z], now, k[b + LIMIT], k[b + WINDOW],
            k[b + EMISSION], k[b + TOLERANCE], k[b + COST])
        all = all and allowed
        out[o + 1] = allowed and 1 or 0
        out[o + 2] = math.max(0, remaining)
        out[o + 3] = math.max(0, reset)
        out[o + 4] = allowed and k[b + NX] or math.max(1, retry)
        o = o + 4
      end
      if all then
        for i = 1, keys do
          local b = (i - 1) * FIELDS
          k[b + X], k[b + Y], k[b + Z], k[b + IDLE] = k[b + NX], k[b + NY], k[b + NZ], k[b + NIDLE]
        end
        moved = true
      end
    end
    if moved then
      for i = 1, keys do
        local b = (i - 1) * FIELDS
        k[b + STATE] = writes[k[b + CODE]](k[b + X], k[b + Y], k[b + Z])
        -- Expire a second after the state equals a fresh one: never a moment early, whatever the
        -- clock of the server that expires it (a replica after a failover runs its own).
        k[b + TTL] = math.max(0, math.ceil((k[b + IDLE] - now) / 1000)) + 1000
      end
      changed = true
    end
    a = a + keys * 6
  end
  if changed then
    for i = 1, keys do
      local b = (i - 1) * FIELDS
      redis.call('SET', KEYS[first_key + i - 1], k[b + STATE], 'PX', string.format('%d', k[b + TTL]))
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
