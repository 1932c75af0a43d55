-- Sliding-window counter of the design notes: rate = prev x (1 - elapsed/window) + cur; a request
-- of cost c is allowed when rate + c - 1 < limit. Mirrors dev.sluice.algo.SlidingWindow with the
-- same floating-point operations in the same order, so both sides agree to the microsecond.
-- State "index:prev:cur".
local function sliding_rate(prev, cur, elapsed, window)
  return prev * (window - elapsed) / window + cur
end

local function sliding_admits(prev, cur, elapsed, window, limit, c)
  return sliding_rate(prev, cur, elapsed, window) + (c - 1) < limit
end

-- The first microsecond in [from, window] at which the request is admitted.
local function sliding_first_admitting(prev, cur, from, window, limit, c)
  if prev == 0 or sliding_admits(prev, cur, from, window, limit, c) then
    return from
  end
  local room = limit - cur - c + 1
  local e = math.max(from, math.min(window, math.floor(window - room * window / prev)))
  while e > from and sliding_admits(prev, cur, e - 1, window, limit, c) do
    e = e - 1
  end
  while e < window and not sliding_admits(prev, cur, e, window, limit, c) do
    e = e + 1
  end
  return e
end

local function sliding_window(state, now, limit, window, emission, tolerance, cost)
  local stored, prev, cur = 0, 0, 0
  if state then
    local i, p, c = string.match(state, '^(%d+):(%d+):(%d+)$')
    if i then
      stored, prev, cur = tonumber(i), tonumber(p), tonumber(c)
    end
  end
  local index = math.max(math.floor(now / window), stored)
  local elapsed = math.max(0, now - index * window)
  if stored == index - 1 then
    prev, cur = cur, 0
  elseif stored ~= index then
    prev, cur = 0, 0
  end
  local allowed = sliding_admits(prev, cur, elapsed, window, limit, cost)
  local cur_after = cur
  if allowed then
    cur_after = cur + cost
  end
  local remaining = math.ceil(limit - sliding_rate(prev, cur_after, elapsed, window))
  local reset = 0
  if cur_after > 0 then
    reset = 2 * window - elapsed
  elseif prev > 0 then
    reset = window - elapsed
  end
  local retry = 0
  if not allowed then
    if prev > 0 and cur + cost - 1 < limit then
      retry = sliding_first_admitting(prev, cur, elapsed, window, limit, cost) - elapsed
    else
      retry = window - elapsed + sliding_first_admitting(cur, 0, 0, window, limit, cost)
    end
  end
  return allowed, remaining, reset, retry,
    string.format('%d:%d:%d', index, prev, cur_after), (index + 2) * window
end
