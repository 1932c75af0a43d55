-- Sliding-window counter of the design notes: rate = prev x (1 - elapsed/window) + cur; a request
-- of cost c is allowed when rate + c - 1 < limit. Mirrors dev.sluice.algo.SlidingWindow with the
-- same floating-point operations in the same order, so both sides agree to the microsecond.
-- State: 1IIIIWP...C..., the digit 1, the window index modulo 10^4 in four digits, one character
-- W whose code is 48 + the number of digits of P, the previous window's count P, then the current
-- window's count C. Below 10^6 per window both counts fit in one 64-bit integer.

-- The stored window index and counts; no index for a missing or unreadable state.
local function sliding_window_parse(state, current)
  local i, w, counts = string.match(state or '', '^1(%d%d%d%d)(.)(%d+)$')
  local digits = w and string.byte(w) - 48
  if not i or digits < 1 or digits >= #counts then
    return nil, 0, 0
  end
  return stored_index(current, tonumber(i)), tonumber(string.sub(counts, 1, digits)),
    tonumber(string.sub(counts, digits + 1))
end

local function sliding_window_write(index, prev, cur)
  local p = string.format('%d', prev)
  return string.format('1%04d%s%s%d', index % INDEX_MOD, string.char(48 + #p), p, cur)
end
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

-- The window that counts now and the counts of it and the one before.
local function sliding_window_read(state, now, window)
  local current = math.floor(now / window)
  local stored, prev, cur = sliding_window_parse(state, current)
  stored = stored or current - 2
  local index = math.max(current, stored)
  if stored == index - 1 then
    return index, cur, 0
  elseif stored ~= index then
    return index, 0, 0
  end
  return index, prev, cur
end

-- Returns allowed, remaining, reset, retry (microseconds), the instant the state becomes idle and
-- the state after the request.
local function sliding_window(index, prev, cur, now, limit, window, emission, tolerance, cost)
  local elapsed = math.max(0, now - index * window)
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
  return allowed, remaining, reset, retry, (index + 2) * window, index, prev, cur_after
end

-- The state after giving back cost, or nil. The take counted in the window of its index: in the
-- current count while that window is the stored one, in the previous count once the next one is;
-- after that it no longer weighs.
local function sliding_window_refund(state, now, window, emission, cost, take)
  local stored, prev, cur = sliding_window_parse(state, take)
  if stored == take then
    return sliding_window_write(stored, prev, math.max(0, cur - cost))
  elseif stored == take + 1 then
    return sliding_window_write(stored, math.max(0, prev - cost), cur)
  end
  return nil
end
