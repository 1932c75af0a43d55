package dev.sluice.core;

import java.util.List;

/**
 * What the limiter needs to know of a request, whoever carries it (the servlet Filter, the agent, a
 * test). Every value may come from a hostile client except {@link #remoteAddress()}.
 */
public interface RequestView {
  /** The HTTP method, e.g. {@code GET}. */
  String method();

  /** The request URI as sent, not decoded, including the context path and without the query. */
  String path();

  /** The address of the direct peer (a client or a proxy), as the container reports it. */
  String remoteAddress();

  /** The first value of a header, or null. Names are case-insensitive. */
  String header(String name);

  /** Every value of a header in the order received, or an empty list. */
  List<String> headers(String name);

  /** The authenticated user, or null. */
  String remoteUser();
}
