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

-- The state after giving back what of the take has not refilled yet, or nil. The take (the TAT it
-- left) spent the stretch of time from take - cost x emission to take; whatever of it lies before
-- now has refilled, alone or under later takes, and a take made after it started afresh from its
-- own now. So only take - now of it, at most cost x emission, is still spent: cutting that out
-- moves the later takes on top of it down. A later take that started inside the stretch would,
-- without this take, have started earlier still, so this never gives back more than the take cost;
-- with no take since, the bucket ends as if there had been none.
local function token_bucket_refund(state, now, window, emission, cost, take)
  local tat = tonumber(state)
  local unspent = math.min(cost * emission, take - now)
  if tat and unspent > 0 then
    return token_bucket_write(tat - unspent)
  end
  return nil
end
