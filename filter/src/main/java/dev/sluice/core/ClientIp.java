package dev.sluice.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Who the client is. The direct peer is the client unless it is a trusted proxy; then the
 * forwarding chain ({@code X-Forwarded-For}, else {@code Forwarded}) is read from the right, past
 * every trusted proxy, to the first address no trusted proxy vouches for. Entries to the left of it
 * were written by the client and are ignored, so spoofing the header gains nothing.
 */
public final class ClientIp {
  /** A client cannot make us walk more hops than this, however long its header. */
  private static final int MAX_HOPS = 32;

  private final List<Cidr> trustedProxies;

  public ClientIp(List<Cidr> trustedProxies) {
    this.trustedProxies = Collections.unmodifiableList(new ArrayList<>(trustedProxies));
  }

  public List<Cidr> trustedProxies() {
    return trustedProxies;
  }

  /** True when the direct peer may speak for the client (forwarding headers, the tier header). */
  public boolean peerIsTrusted(RequestView request) {
    return isTrusted(IpAddress.parse(request.remoteAddress()));
  }

  /** The client's address in canonical form; never null. */
  public String resolve(RequestView request) {
    String peerText = request.remoteAddress();
    byte[] peer = IpAddress.parse(peerText);
    if (peer == null) {
      return peerText == null ? "unknown" : peerText;
    }
    if (!isTrusted(peer)) {
      return IpAddress.canonical(peerText, peer);
    }
    Hops hops = new Hops(request);
    byte[] nearest = peer;
    for (int i = 0; i < MAX_HOPS; i++) {
      String hop = hops.next();
      byte[] address = hop == null ? null : IpAddress.parse(hop);
      if (address == null) {
        break; // end of the chain, or junk a proxy passed on: the last trusted hop is all we know
      }
      if (!isTrusted(address)) {
        return IpAddress.format(address);
      }
      nearest = address;
    }
    return IpAddress.format(nearest);
  }

  private boolean isTrusted(byte[] address) {
    for (Cidr cidr : trustedProxies) {
      if (cidr.contains(address)) {
        return true;
      }
    }
    return false;
  }

  /** The forwarding chain read from the right, one address at a time. */
  private static final class Hops {
    private final List<String> headers;
    private final boolean forwarded;
    private int header;
    private int end;

    Hops(RequestView request) {
      List<String> xff = request.headers("X-Forwarded-For");
      this.forwarded = xff.isEmpty();
      this.headers = forwarded ? request.headers("Forwarded") : xff;
      this.header = headers.size() - 1;
      this.end = header >= 0 ? headers.get(header).length() : 0;
    }

    String next() {
      while (header >= 0) {
        String value = headers.get(header);
        if (end >= 0) {
          int comma = value.lastIndexOf(',', end - 1);
          String element = value.substring(comma + 1, end).trim();
          end = comma;
          if (!element.isEmpty()) {
            return forwarded ? forValue(element) : element;
          }
          continue;
        }
        header--;
        end = header >= 0 ? headers.get(header).length() : 0;
      }
      return null;
    }

    /** The {@code for=} of one RFC 7239 element, unquoted: {@code for="[::1]:80";proto=http}. */
    private static String forValue(String element) {
      for (String pair : element.split(";")) {
        int eq = pair.indexOf('=');
        if (eq > 0 && pair.substring(0, eq).trim().equalsIgnoreCase("for")) {
          String v = pair.substring(eq + 1).trim();
          return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")
              ? v.substring(1, v.length() - 1) : v;
        }
      }
      return "";
    }
  }
}
