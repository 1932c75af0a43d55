package dev.sluice.bench;

/**
 * A control for {@link DecisionBench}, not a limiter: it only builds the request a decision is
 * given (the client's IP and API key as fresh strings) and reads what the limiter reads from it.
 * Subtract it from a decision to see what Sluice itself costs.
 */
public class RequestBuildBench extends KeyedBench {
  @Override
  protected void build() {}

  @Override
  protected boolean take(int i) {
    FixedRequest request = DecisionBench.apiCall(i);
    String ip = request.remoteAddress();
    String apiKey = request.header("X-API-Key");
    return ip.charAt(ip.length() - 1) + apiKey.charAt(apiKey.length() - 1) != 0;
  }

  @Override
  protected boolean expectAllowed() {
    return true;
  }
}
