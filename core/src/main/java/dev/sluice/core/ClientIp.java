package dev.sluice.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Who the client is. The direct peer is the client unless it is a trusted proxy; then the one
 * forwarding chain the proxies write ({@code X-Forwarded-For} or {@code Forwarded}, never
 * "whichever is present", or a client would pick) is read from the right, past every trusted proxy,
 * to the first address no trusted proxy vouches for. Entries to the left of it were written by the
 * client and are ignored, so spoofing the header gains nothing.
 *
 * <p>An IPv6 client is its /64 network by default: one subscriber is handed a whole /64, and
 * counting each of its 2^64 addresses apart would let it walk past any per-IP limit.
 */
public final class ClientIp {
  public static final String X_FORWARDED_FOR = "X-Forwarded-For";
  public static final String FORWARDED = "Forwarded";
  public static final int DEFAULT_IPV6_PREFIX = 64;

  /** A client cannot make us walk more hops than this, however long its header. */
  private static final int MAX_HOPS = 32;

  private final List<Cidr> trustedProxies;
  private final String chainHeader;
  private final int ipv6Prefix;

  /**
   * @param chainHeader {@link #X_FORWARDED_FOR} or {@link #FORWARDED}: the header the trusted
   *     proxies write
   * @param ipv6Prefix how many leading bits of an IPv6 client address make one client, 1 to 128
   */
  public ClientIp(List<Cidr> trustedProxies, String chainHeader, int ipv6Prefix) {
    this.trustedProxies = Collections.unmodifiableList(new ArrayList<>(trustedProxies));
    this.chainHeader = chainHeader;
    this.ipv6Prefix = ipv6Prefix;
  }

  /** Proxies that write {@code X-Forwarded-For}; IPv6 clients by /64. */
  public ClientIp(List<Cidr> trustedProxies) {
    this(trustedProxies, X_FORWARDED_FOR, DEFAULT_IPV6_PREFIX);
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
      return peer.length == 4 ? IpAddress.canonical(peerText, peer) : client(peer);
    }
    return client(forwardedClient(request, peer, true));
  }

  /**
   * The client's own address, never widened to its IPv6 network, when the request tells it for
   * sure: the peer's when it is no trusted proxy, else the first untrusted hop of the chain. Null
   * when the peer's address is unreadable, or when the chain names no untrusted hop (a trusted
   * proxy that wrote no header, or trusted proxies only): all that is known then is that a proxy
   * sent the request, for whoever is behind it.
   */
  public byte[] vouchedClient(RequestView request) {
    byte[] peer = IpAddress.parse(request.remoteAddress());
    if (peer == null || !isTrusted(peer)) {
      return peer;
    }
    return forwardedClient(request, peer, false);
  }

  /**
   * The first untrusted hop of the chain behind the trusted {@code peer}; when there is none, the
   * last trusted hop if {@code orNearest}, else null.
   */
  private byte[] forwardedClient(RequestView request, byte[] peer, boolean orNearest) {
    Hops hops = new Hops(request, chainHeader);
    byte[] nearest = peer;
    for (int i = 0; i < MAX_HOPS; i++) {
      String hop = hops.next();
      byte[] address = hop == null ? null : IpAddress.parse(hop);
      if (address == null) {
        break; // end of the chain, or junk a proxy passed on: the last trusted hop is all we know
      }
      if (!isTrusted(address)) {
        return address;
      }
      nearest = address;
    }
    return orNearest ? nearest : null;
  }

  /** Same proxies, header and prefix: the same clients found in any request. */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ClientIp)) {
      return false;
    }
    ClientIp other = (ClientIp) o;
    return trustedProxies.toString().equals(other.trustedProxies.toString())
        && chainHeader.equals(other.chainHeader)
        && ipv6Prefix == other.ipv6Prefix;
  }

  @Override
  public int hashCode() {
    return trustedProxies.toString().hashCode() * 31 + ipv6Prefix;
  }

  /** The client an address stands for: itself, or for IPv6 its network. */
  private String client(byte[] address) {
    if (address.length == 4 || ipv6Prefix == 128) {
      return IpAddress.format(address);
    }
    byte[] network = address.clone();
    for (int bit = ipv6Prefix; bit < 128; bit++) {
      network[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
    }
    return IpAddress.format(network) + "/" + ipv6Prefix;
  }

  private boolean isTrusted(byte[] address) {
    for (int i = 0; i < trustedProxies.size(); i++) { // by index: no iterator per request
      if (trustedProxies.get(i).contains(address)) {
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

    Hops(RequestView request, String chainHeader) {
      this.forwarded = chainHeader.equals(FORWARDED);
      this.headers = request.headers(chainHeader);
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
              ? v.substring(1, v.length() - 1)
              : v;
        }
      }
      return "";
    }
  }
}
