-- Tells what acquire.lua would decide now for each key of one identity alone, and writes nothing:
-- an operator's question, not a decision, so the keys are not decided all or none, and a key
-- never seen stays unwritten. KEYS and ARGV are acquire.lua's for one call of one request (the
-- time argument, 1, the number of keys, 1, 1, then six values per key: algorithm, limit, window,
-- emission, tolerance, cost), so the keys and values are made by the code that makes acquire's.
-- Returns four integers per key: allowed (1 or 0), remaining, reset and retry-after (microseconds,
-- 0 when allowed); a key of another type is answered as acquire.lua answers it: -1, 0, 0, 0 for
-- every key.
local now = script_now(ARGV[1])
local reads = { f = fixed_window_read, s = sliding_window_read, t = token_bucket_read }
local steps = { f = fixed_window, s = sliding_window, t = token_bucket }
local out = {}
for i, key in ipairs(KEYS) do
  local state = redis.pcall('GET', key)
  if type(state) == 'table' and state.err then
    for j = 1, #KEYS do
      out[4 * j - 3], out[4 * j - 2], out[4 * j - 1], out[4 * j] = -1, 0, 0, 0
    end
    return out
  end
  local v = 6 + (i - 1) * 6
  local code, window = ARGV[v], tonumber(ARGV[v + 2])
  local x, y, z = reads[code](state, now, window)
  local allowed, remaining, reset, retry = steps[code](x, y, z, now, tonumber(ARGV[v + 1]),
    window, tonumber(ARGV[v + 3]), tonumber(ARGV[v + 4]), tonumber(ARGV[v + 5]))
  out[4 * i - 3] = allowed and 1 or 0
  out[4 * i - 2] = math.max(0, remaining)
  out[4 * i - 1] = math.max(0, reset)
  out[4 * i] = allowed and 0 or math.max(1, retry)
end
return out
