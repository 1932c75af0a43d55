package dev.sluice.config;

import dev.sluice.admin.AdminSettings;
import dev.sluice.admin.WriteCredentials;
import dev.sluice.core.Cidr;
import dev.sluice.core.ClientIp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads the {@code admin} section; no section, no endpoint. The token should come from the
 * environment, {@code token: ${SLUICE_ADMIN_TOKEN}}, so it never sits in a file that is copied
 * around; an unset variable turns the endpoint off, with a warning, rather than leave an empty
 * token that anyone could send, or reject the rules for the sake of a monitoring endpoint. A
 * section without a token is an error too unless it says {@code allow_without_token: true}: the
 * address alone is weak proof (a proxy or sidecar on an allowed host makes everyone behind it that
 * host), so doing without the token must be a choice, written down.
 */
final class AdminReader {
  static final String WITHOUT_TOKEN = "allow_without_token";

  /** Said by check and at each reload: a forwarding hop makes everyone behind it an address. */
  static final String WITHOUT_TOKEN_WARNING =
      "true answers whoever comes from an address in allow, without a token: behind a reverse"
          + " proxy, or with the container's forward headers on (Spring Boot's"
          + " server.forward-headers-strategy, on by itself on Kubernetes; Tomcat's"
          + " RemoteIpValve), it opens the admin endpoint to anyone the proxy forwards. Keep a"
          + " token there (see the admin endpoint in docs/operations.md)";

  /** About 96 bits in base64: shorter tokens can be guessed online, and are refused. */
  static final int MIN_TOKEN_CHARS = 16;

  /** Path segments that every proxy and container passes on unchanged. */
  private static final String PATH = "(/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+";

  private AdminReader() {}

  /**
   * @param clientIp the file's {@code client_ip}, which the endpoint follows too
   * @param rulesFromRedis whether the file says {@code rules_from: redis}, without which no write
   *     is ever taken
   */
  static AdminSettings read(
      Fields f,
      Problems problems,
      Map<String, String> environment,
      ClientIp clientIp,
      boolean rulesFromRedis) {
    if (f == null) {
      return null;
    }
    String path = f.string("path");
    List<Fields.Value> allowed = f.values("allow");
    List<Fields.Value> tokens = f.values("token");
    boolean withoutToken = Boolean.TRUE.equals(f.bool(WITHOUT_TOKEN));
    Node writeTokens = f.take(WriteTokenReader.FIELD);
    f.finish("path", "allow", "token", WITHOUT_TOKEN, WriteTokenReader.FIELD);
    if (path == null) {
      path = AdminSettings.DEFAULT_PATH;
    } else if (!path.matches(PATH) || path.contains("/./") || path.endsWith("/.")) {
      problems.at(
          f.where("path"),
          f.pathOf("path"),
          "must be a plain path such as /_sluice (letters, digits, - _ . ~, no trailing slash),"
              + " got \""
              + path
              + "\"");
    }
    List<Cidr> allow = AdminSettings.LOOPBACK;
    if (allowed != null) {
      allow = new ArrayList<>();
      for (Fields.Value cidr : allowed) {
        try {
          allow.add(Cidr.parse(cidr.text));
        } catch (IllegalArgumentException e) {
          problems.at(cidr.node, cidr.path, e.getMessage());
        }
      }
    }
    String token = null;
    if (tokens != null && tokens.size() != 1) {
      problems.at(f.where("token"), f.pathOf("token"), "must be one value");
    } else if (tokens != null) {
      List<String> unset = new ArrayList<>();
      UrlTemplate.expand(tokens.get(0).text, environment, unset);
      if (!unset.isEmpty()) {
        // Off, never open: and the rules still hold, since the endpoint is only for operators.
        problems.warn(
            tokens.get(0).node,
            tokens.get(0).path,
            "names the environment variable "
                + unset.get(0)
                + ", which is not set: the admin endpoint is off until it is (set it where the"
                + " JVM starts, e.g. export "
                + unset.get(0)
                + "=$(openssl rand -base64 24)); the rules are in force");
        return null;
      }
      token = token(tokens.get(0), problems, environment);
    }
    if (tokens == null && !withoutToken) {
      problems.at(
          f.where(WITHOUT_TOKEN),
          f.pathOf("token"),
          "is required: set token: \"${SLUICE_ADMIN_TOKEN}\" and send it as Authorization: Bearer"
              + " <token>, or write "
              + WITHOUT_TOKEN
              + ": true to answer the addresses in allow without one (never with a reverse proxy"
              + " or sidecar on an allowed host: see the admin endpoint in docs/operations.md)");
    } else if (tokens != null && withoutToken) {
      problems.at(
          f.where(WITHOUT_TOKEN),
          f.pathOf(WITHOUT_TOKEN),
          "true contradicts the token given; remove one");
    } else if (withoutToken) {
      problems.warn(f.where(WITHOUT_TOKEN), f.pathOf(WITHOUT_TOKEN), WITHOUT_TOKEN_WARNING);
    }
    WriteCredentials writers =
        WriteTokenReader.read(
            writeTokens, f.pathOf(WriteTokenReader.FIELD), token, problems, environment);
    if (writeTokens != null && !rulesFromRedis) {
      problems.warn(
          writeTokens,
          f.pathOf(WriteTokenReader.FIELD),
          "writes need rules_from: redis: the rules come from this file, which the endpoint never"
              + " rewrites, so every write is refused (409); say rules_from: redis (with a Redis"
              + " store) to publish rules through the endpoint, or remove write_token");
    }
    return new AdminSettings(path, allow, token, writers, clientIp);
  }

  static String token(Fields.Value value, Problems problems, Map<String, String> environment) {
    if (!value.text.contains("${")) {
      problems.warn(
          value.node,
          value.path,
          "is written in the file itself: whoever reads the file, a copy or a backup of it holds"
              + " the credential; write \"${SLUICE_ADMIN_TOKEN}\" (any variable) and set it where"
              + " the JVM starts");
    }
    String token = UrlTemplate.expand(value, environment, problems);
    if (token != null
        && (token.length() < MIN_TOKEN_CHARS || token.trim().length() != token.length())) {
      // The message never repeats the token.
      problems.at(
          value.node,
          value.path,
          "must be at least "
              + MIN_TOKEN_CHARS
              + " characters without leading or trailing spaces, e.g. from `openssl rand -base64"
              + " 24`");
    }
    return token;
  }
}
