-- Token bucket as GCRA: one number, the instant the bucket is full again (TAT). Mirrors
-- dev.sluice.algo.TokenBucket; emission (microseconds per token, rounded up) and tolerance
-- (burst x emission) come from the caller so both sides round alike.
local function token_bucket(state, now, limit, window, emission, tolerance, cost)
  local tat = tonumber(state) or 0
  local start = math.max(tat, now)
  local spent = start + cost * emission
  local allowed = spent - now <= tolerance
  local after = start
  if allowed then
    after = spent
  end
  local remaining = math.floor((tolerance - (after - now)) / emission)
  return allowed, remaining, after - now, spent - tolerance - now,
    string.format('%d', after), after
end

-- The state after giving back cost: the bucket full again that much sooner.
local function token_bucket_refund(state, now, window, emission, cost)
  local tat = tonumber(state)
  if tat then
    return string.format('%d', tat - cost * emission)
  end
  return nil
end
