-- Fixed window: a count per window aligned to the epoch. Mirrors dev.sluice.algo.FixedWindow.
-- State "index:count". Returns allowed, remaining, reset, retry (microseconds), the new state and
-- the instant it becomes idle.
local function fixed_window(state, now, limit, window, emission, tolerance, cost)
  local stored, count = 0, 0
  if state then
    local i, c = string.match(state, '^(%d+):(%d+)$')
    if i then
      stored, count = tonumber(i), tonumber(c)
    end
  end
  -- A clock that steps back stays in the stored window rather than forgetting its count.
  local index = math.max(math.floor(now / window), stored)
  if stored ~= index then
    count = 0
  end
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
  return allowed, limit - after, reset, until_next,
    string.format('%d:%d', index, after), (index + 1) * window
end
