package dev.sluice.http;

import static dev.sluice.store.ManualClock.SECOND;

import dev.sluice.config.ConfigParser;
import dev.sluice.core.Limiter;
import dev.sluice.core.TestRequest;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;

/** An enforcer over a config, on a clock the test moves, and what it answers to one request. */
final class Responding {
  /** On a minute boundary, so fixed windows of a minute start here. */
  static final long START = 1_800_000_000L * SECOND;

  final ManualClock clock = new ManualClock(START);
  final Limiter limiter = new Limiter(new MemoryStore(clock, 100, 0));
  final Enforcer enforcer = new Enforcer(limiter, Admin.NONE, clock);

  Responding(String yaml) throws Exception {
    limiter.apply(ConfigParser.parse("test.yaml", yaml).rules());
  }

  /** What {@code request} is answered: headers, and status and body if it was denied. */
  FakeExchange send(TestRequest request) throws Exception {
    FakeExchange exchange = new FakeExchange(request);
    enforcer.admit(exchange);
    return exchange;
  }

  FakeExchange get(String path) throws Exception {
    return send(TestRequest.get(path));
  }
}
