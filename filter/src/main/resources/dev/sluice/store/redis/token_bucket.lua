-- Token bucket as GCRA: one number, the instant the bucket is full again (TAT). Mirrors
-- dev.sluice.algo.TokenBucket; emission (microseconds per token, rounded up) and tolerance
-- (burst x emission) come from the caller so both sides round alike.
-- Each algorithm has three parts, so that acquire.lua parses and formats a key's state once per
-- script run however many requests it decides on it: read (stored text to numbers), step (one
-- request, numbers to numbers) and write (numbers to the text stored).

local function token_bucket_read(state, now, window)
  return tonumber(state) or 0
end

local function token_bucket_write(tat)
  return string.format('%d', tat)
end

-- Returns allowed, remaining, reset, retry (microseconds), the instant the state becomes idle and
-- the state after the request.
local function token_bucket(tat, _, _, now, limit, window, emission, tolerance, cost)
  local start = math.max(tat, now)
  local spent = start + cost * emission
  local allowed = spent - now <= tolerance
  local after = start
  if allowed then
    after = spent
  end
  local remaining = math.floor((tolerance - (after - now)) / emission)
  return allowed, remaining, after - now, spent - tolerance - now, after, after
end

-- The state after giving back cost: the bucket full again that much sooner.
local function token_bucket_refund(state, now, window, emission, cost)
  local tat = tonumber(state)
  if tat then
    return token_bucket_write(tat - cost * emission)
  end
  return nil
end
