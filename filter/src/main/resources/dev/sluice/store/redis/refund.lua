-- Gives back what acquire.lua took for one identity, when a later identity of the same request
-- was denied (rules with different identities live on different slots, so they cannot share one
-- atomic script). ARGV[1]: the time argument of time.lua; then four values per key: algorithm,
-- window, emission, cost. Keeps each key's TTL; a key that has expired has nothing to give back.
local now = script_now(ARGV[1])
for i, key in ipairs(KEYS) do
  local a = 2 + (i - 1) * 4
  local algorithm, window = ARGV[a], tonumber(ARGV[a + 1])
  local emission, cost = tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3])
  local state = redis.call('GET', key)
  local refunded = nil
  if state and algorithm == 't' then
    refunded = string.format('%d', tonumber(state) - cost * emission)
  elseif state and algorithm == 'f' then
    local index, count = string.match(state, '^(%d+):(%d+)$')
    if index and tonumber(index) == math.floor(now / window) then
      refunded = string.format('%d:%d', index, math.max(0, tonumber(count) - cost))
    end
  elseif state then
    -- The take is the stored current count, whether or not the window has rolled since.
    local index, prev, cur = string.match(state, '^(%d+):(%d+):(%d+)$')
    if index and tonumber(index) >= math.floor(now / window) - 1 then
      refunded = string.format('%d:%d:%d', index, prev, math.max(0, tonumber(cur) - cost))
    end
  end
  if refunded then
    redis.call('SET', key, refunded, 'KEEPTTL')
  end
end
return 0
