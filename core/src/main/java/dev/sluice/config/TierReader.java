package dev.sluice.config;

import dev.sluice.core.Tiers;
import dev.sluice.support.Nearest;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads {@code tiers}, where a request's tier comes from, and then knows which tiers a request can
 * ever be given: a rule's limit for any other tier never applies, which the author should hear of.
 */
final class TierReader {
  private final Problems problems;
  private final boolean proxiesTrusted;
  private final Map<String, String> tierByKey = new HashMap<>();
  private String header;

  /**
   * @param proxiesTrusted whether {@code client_ip.trusted_proxies} lists any: the tier header is
   *     honoured from them only
   */
  TierReader(Problems problems, boolean proxiesTrusted) {
    this.problems = problems;
    this.proxiesTrusted = proxiesTrusted;
  }

  /** The tiers of {@code f}, or none when it is null. */
  Tiers read(Fields f) {
    if (f == null) {
      return Tiers.NONE;
    }
    header = ConfigParser.header(f, "header", null, problems);
    Fields apiKeys = f.fields("api_keys");
    if (apiKeys != null) {
      for (String tier : apiKeys.names()) {
        List<Fields.Value> keys = apiKeys.values(tier);
        for (Fields.Value key : keys == null ? Collections.<Fields.Value>emptyList() : keys) {
          if (key.text.trim().isEmpty()) {
            problems.at(key.node, key.path, "an API key cannot be empty");
            continue;
          }
          // The messages never repeat the key: it is a secret, and they end up in logs.
          String other = tierByKey.put(key.text, tier);
          if (other != null) {
            problems.at(
                key.node,
                key.path,
                other.equals(tier)
                    ? "this API key appears twice in the tier"
                    : "this API key is also in tier " + other + "; a key has one tier");
          }
        }
      }
    }
    f.finish("header", "api_keys");
    return new Tiers(header, tierByKey);
  }

  /**
   * Warns at {@code where} when no request can ever be given {@code tier}: no API key has it, and
   * no trusted proxy can name it in the tier header.
   */
  void warnIfNeverGiven(String tier, Node where, String path) {
    if (tierByKey.containsValue(tier) || (header != null && proxiesTrusted)) {
      return;
    }
    String near = Nearest.to(tier, tierByKey.values().toArray(new String[0]));
    problems.warn(
        where,
        path,
        "no request is ever given tier "
            + tier
            + (near == null ? "" : " (did you mean " + near + "?)")
            + ": no API key in tiers.api_keys has it, and "
            + (header == null
                ? "there is no tiers.header"
                : "tiers.header is honoured only from client_ip.trusted_proxies, which lists none")
            + "; this limit never applies");
  }
}
