package dev.sluice.bench;

/**
 * A control for {@link DecisionBench}, not a limiter: it reads the request fields the limiter reads
 * (IP and API key, down to their characters) and nothing else. With many keys the requests are
 * precomputed objects spread over the heap, so even this misses the cache, while a container hands
 * the limiter a request it has just parsed. Subtracting this from the decision's many-key penalty
 * leaves the part Sluice itself adds.
 */
public class RequestReadBench extends KeyedBench {
  private FixedRequest[] requests;

  @Override
  protected void build() {
    requests = DecisionBench.apiCalls(keys);
  }

  @Override
  protected boolean take(int i) {
    FixedRequest request = requests[i];
    String ip = request.remoteAddress();
    String apiKey = request.header("X-API-Key");
    return ip.charAt(ip.length() - 1) + apiKey.charAt(apiKey.length() - 1) != 0;
  }

  @Override
  protected boolean expectAllowed() {
    return true;
  }
}
