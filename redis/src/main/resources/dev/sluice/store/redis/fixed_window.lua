-- Fixed window: a count per window aligned to the epoch. Mirrors dev.sluice.algo.FixedWindow.
-- State: 1IIIIC..., the digit 1, the window index modulo 10^4 in four digits, then the count.

-- The stored window index and count; no index for a missing or unreadable state.
local function fixed_window_parse(state, current)
  local i, c = string.match(state or '', '^1(%d%d%d%d)(%d+)$')
  if not i then
    return nil, 0
  end
  return stored_index(current, tonumber(i)), tonumber(c)
end

-- The window that counts now and its count. A clock that steps back stays in the stored window
-- rather than forgetting its count.
local function fixed_window_read(state, now, window)
  local current = math.floor(now / window)
  local stored, count = fixed_window_parse(state, current)
  local index = math.max(current, stored or current)
  if stored ~= index then
    count = 0
  end
  return index, count
end

local function fixed_window_write(index, count)
  return string.format('1%04d%d', index % INDEX_MOD, count)
end

-- Returns allowed, remaining, reset, retry (microseconds), the instant the state becomes idle and
-- the state after the request.
local function fixed_window(index, count, _, now, limit, window, emission, tolerance, cost)
  local allowed = count + cost <= limit
  local after = count
  if allowed then
    after = count + cost
  end
  local until_next = (index + 1) * window - now
  local reset = 0
  if after > 0 then
    reset = until_next
  end
  return allowed, limit - after, reset, until_next, (index + 1) * window, index, after
end

-- The state after giving back cost, or nil: only while the window the take counted in (its index)
-- is the stored one; a later window's count is other requests'.
local function fixed_window_refund(state, now, window, emission, cost, take)
  local stored, count = fixed_window_parse(state, take)
  if stored == take then
    return fixed_window_write(stored, math.max(0, count - cost))
  end
  return nil
end
