-- Leases permits of one key to a JVM that decides a local-first rule by itself: takes, atomically,
-- the largest block of at most `want` permits that the algorithm admits now, so the fleet never
-- admits more than the limit from leases (docs/design.md, "Local-first decisions").
-- ARGV: the time argument of time.lua, then the key's algorithm (f, s or t), limit, window,
-- emission, tolerance, want, and the fleet size. Near the limit one JVM gets at most its part of
-- what still fits, max(1, floor(fit / fleet)), so that it never strands what the others need.
-- Returns five integers: the permits granted g (0 when none fit), remaining, reset (microseconds),
-- the take when g > 0 (the window index the permits counted in, or the bucket's TAT, for
-- refund.lua to give back the unspent part with cost = unspent) or the retry-after when g = 0,
-- and for fixed and sliding windows the microseconds until the window of the take ends (0 for a
-- bucket). The state is written with its TTL exactly as acquire.lua writes it.
local now = script_now(ARGV[1])
local reads = { f = fixed_window_read, s = sliding_window_read, t = token_bucket_read }
local steps = { f = fixed_window, s = sliding_window, t = token_bucket }
local writes = { f = fixed_window_write, s = sliding_window_write, t = token_bucket_write }
local code, limit, window = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local emission, tolerance = tonumber(ARGV[5]), tonumber(ARGV[6])
local want, fleet = math.max(1, tonumber(ARGV[7])), math.max(1, tonumber(ARGV[8]))
local x, y, z = reads[code](redis.call('GET', KEYS[1]), now, window)

local function step(cost)
  return steps[code](x, y, z, now, limit, window, emission, tolerance, cost)
end

-- The largest cost up to want x fleet that the step admits: admitting is monotone in the cost,
-- so a binary search finds it in log2(want x fleet) pure steps. Beyond want x fleet the cap below
-- grants want anyway.
local lo, hi = 0, want * fleet
while lo < hi do
  local mid = math.floor((lo + hi + 1) / 2)
  if step(mid) then
    lo = mid
  else
    hi = mid - 1
  end
end
local granted = 0
if lo > 0 then
  granted = math.min(want, math.max(1, math.floor(lo / fleet)))
end

local allowed, remaining, reset, retry, idle, nx, ny, nz = step(math.max(1, granted))
local window_left = 0
if code ~= 't' then
  window_left = (x + 1) * window - now
end
if granted == 0 then
  return { 0, math.max(0, remaining), math.max(0, reset), math.max(1, retry), window_left }
end
local ttl = math.max(0, math.ceil((idle - now) / 1000)) + 1000
redis.call('SET', KEYS[1], writes[code](nx, ny, nz), 'PX', string.format('%d', ttl))
return { granted, math.max(0, remaining), math.max(0, reset), nx, window_left }
