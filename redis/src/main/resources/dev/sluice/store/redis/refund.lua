-- Gives back what acquire.lua took for one identity, when a later identity of the same request
-- was denied (rules with different identities live on different slots, so they cannot share one
-- atomic script). ARGV[1]: the time argument of time.lua; then five values per key: algorithm,
-- window, emission, cost and the take acquire.lua replied (the window index the take counted in,
-- or the TAT it left), so that a window that rolled since, or takes made since, are not given back
-- to in its place. Keeps each key's TTL; a key that has expired has nothing to give back.
local now = script_now(ARGV[1])
local refunds = { f = fixed_window_refund, s = sliding_window_refund, t = token_bucket_refund }
for i, key in ipairs(KEYS) do
  local a = 2 + (i - 1) * 5
  local state = redis.call('GET', key)
  local refunded = state and refunds[ARGV[a]](state, now, tonumber(ARGV[a + 1]),
    tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4]))
  if refunded then
    redis.call('SET', key, refunded, 'KEEPTTL')
  end
end
return 0
