package dev.sluice.support;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** This host's name, as the published history records where a version came from. */
public final class HostName {
  private HostName() {}

  public static String get() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      String env = System.getenv("HOSTNAME");
      return env == null ? "unknown" : env;
    }
  }
}
