package dev.sluice.config;

import dev.sluice.metrics.Metrics;

/** The {@code metrics} section: how many clients each rule's top list follows, and how shown. */
final class MetricsSettings {
  static final int MAX_TOP_CLIENTS = 100;
  static final MetricsSettings DEFAULT = new MetricsSettings(Metrics.DEFAULT_TOP_CLIENTS, false);

  final int topClients;

  /** Whether identities are shown as they are, API keys included, rather than hashed. */
  final boolean rawIdentities;

  private MetricsSettings(int topClients, boolean rawIdentities) {
    this.topClients = topClients;
    this.rawIdentities = rawIdentities;
  }

  static MetricsSettings read(Fields f, Problems problems) {
    if (f == null) {
      return DEFAULT;
    }
    Long top = f.positive("top_clients");
    Boolean raw = f.bool("raw_identities");
    f.finish("top_clients", "raw_identities");
    if (top != null && top > MAX_TOP_CLIENTS) {
      // Each denial of a client new to the list scans it, under a lock: it must stay short.
      problems.at(
          f.where("top_clients"),
          f.pathOf("top_clients"),
          "must be from 1 to " + MAX_TOP_CLIENTS + ", got " + top);
    }
    return new MetricsSettings(
        top == null || top > MAX_TOP_CLIENTS ? Metrics.DEFAULT_TOP_CLIENTS : top.intValue(),
        Boolean.TRUE.equals(raw));
  }
}
