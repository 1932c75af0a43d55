package dev.sluice.admin;

import dev.sluice.core.Cidr;
import dev.sluice.core.ClientIp;
import dev.sluice.core.RequestView;
import dev.sluice.http.Exchange;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;

/**
 * Whether the caller of a request is one the endpoint may answer, its token aside. Stricter than
 * the rules' reading of a client, which must always name someone to count: here a request that
 * cannot say for sure who sent it is nobody's.
 *
 * <ul>
 *   <li>A peer that is no trusted proxy but sends forwarding headers is a proxy nobody listed
 *       (nginx or httpd on this host, a sidecar): whoever is behind it would look like the proxy,
 *       so it is refused rather than taken for its own address.
 *   <li>A request the container or a filter says was forwarded (its address taken from a forwarding
 *       header, the header perhaps taken away) is never a loopback caller: Tomcat's {@code
 *       RemoteIpValve} trusts 10/8 and 127/8 by default, so a pod that sends {@code
 *       X-Forwarded-For: 127.0.0.1} reaches Sluice as 127.0.0.1 with nothing else to show for it.
 *   <li>A chain of trusted proxies with no untrusted hop (a proxy that writes no header) names only
 *       a proxy, so nobody.
 *   <li>A loopback caller must name this host in {@code Host}: a proxy or sidecar on this host that
 *       writes no forwarding header still passes on the name the client asked for, and a browser on
 *       this host led to the endpoint by DNS rebinding sends the attacker's name.
 * </ul>
 */
final class Caller {
  /** Headers that proxies write and clients of their own have no use for. */
  private static final String[] FORWARDING = {
    ClientIp.FORWARDED,
    ClientIp.X_FORWARDED_FOR,
    "X-Forwarded-Host",
    "X-Forwarded-Proto",
    "X-Real-IP",
    "Via"
  };

  private static final String LOCALHOST = "localhost";

  private Caller() {}

  /**
   * True when the caller of {@code request}, found through {@code clientIp}, is in {@code allow}.
   */
  static boolean isAllowed(Exchange request, ClientIp clientIp, List<Cidr> allow) {
    if (!clientIp.peerIsTrusted(request) && isForwarded(request)) {
      return false;
    }
    byte[] caller = clientIp.vouchedClient(request);
    if (caller == null || !within(caller, allow)) {
      return false;
    }
    return !within(caller, AdminSettings.LOOPBACK)
        || (!request.forwarded() && namesThisHost(request.headers("Host")));
  }

  /** The caller's address as {@link #isAllowed} found it, for the log; null when none is. */
  static String address(RequestView request, ClientIp clientIp) {
    byte[] caller = clientIp.vouchedClient(request);
    try {
      return caller == null ? null : InetAddress.getByAddress(caller).getHostAddress();
    } catch (UnknownHostException e) {
      return null; // not 4 or 16 bytes: never from ClientIp
    }
  }

  private static boolean isForwarded(RequestView request) {
    for (String header : FORWARDING) {
      if (!request.headers(header).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * True for one {@code Host} of {@code localhost} or a loopback address, with or without a port;
   * no name is looked up.
   */
  private static boolean namesThisHost(List<String> hosts) {
    if (hosts.size() != 1) {
      return false;
    }
    String host = hosts.get(0).trim().toLowerCase(Locale.ROOT);
    if (host.startsWith(LOCALHOST)) {
      String port = host.substring(LOCALHOST.length());
      return port.isEmpty() || port.matches(":[0-9]{1,5}");
    }
    for (Cidr loopback : AdminSettings.LOOPBACK) {
      if (loopback.containsLiteral(host)) {
        return true;
      }
    }
    return false;
  }

  private static boolean within(byte[] address, List<Cidr> cidrs) {
    for (Cidr cidr : cidrs) {
      if (cidr.contains(address)) {
        return true;
      }
    }
    return false;
  }
}
