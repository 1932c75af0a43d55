package dev.sluice.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * What a rule counts by: {@code ip}, {@code user}, {@code api_key}, {@code header:NAME}, {@code
 * global}, a list of them for a composite key, or alternatives such as {@code api_key | ip}: a
 * request is counted by the first one it has, so a keyed client is held to its key's limit alone
 * and one without a key to its IP's (Kong's "consumer, else IP"). Alternatives never share a
 * counter: each identity names its kind. Each part is written {@code kind=value} with the
 * value escaped by {@link Identity}, parts joined by {@code &}; {@code =} and {@code &} never occur
 * in an escaped value, so the composition stays unambiguous. A header part's kind is {@code h.} and
 * the header name, lower case and escaped too: header names may hold characters such as {@code *}
 * that must never reach a store key.
 */
public final class Key {
  /** An HTTP token (RFC 9110): what a header name, or a media type's parts, may be made of. */
  public static final String HTTP_TOKEN = "[A-Za-z0-9!#$%&'*+.^_`|~-]+";

  private enum Kind {
    IP,
    USER,
    API_KEY,
    HEADER,
    GLOBAL
  }

  /** The identity of a {@code global} key: everybody shares it. */
  private static final String GLOBAL = "global";

  private final Kind[] kinds;
  private final String[] headers;
  /** Each part's name and its {@code =}, as the identity begins the part. */
  private final String[] prefixes;
  private final String text;
  /** The alternative to count by when a request lacks a part of this one; null when none. */
  private final Key otherwise;

  private Key(Kind[] kinds, String[] headers, String text, Key otherwise) {
    this.otherwise = otherwise;
    this.kinds = kinds;
    this.headers = headers;
    this.prefixes = new String[kinds.length];
    for (int i = 0; i < kinds.length; i++) {
      prefixes[i] = prefixOf(kinds[i], headers[i]) + '=';
    }
    this.text = text;
  }

  /**
   * Parses the key parts of a rule.
   *
   * @throws IllegalArgumentException with a message fit for the user
   */
  public static Key parse(List<String> parts) {
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("a key needs at least one part");
    }
    if (parts.size() == 1 && parts.get(0).contains("|")) {
      return alternatives(parts.get(0));
    }
    for (String part : parts) {
      if (part.contains("|")) {
        throw new IllegalArgumentException(
            "'" + part + "': alternatives (a | b) cannot be part of a composite key");
      }
    }
    return composite(parts, String.join(", ", parts), null);
  }

  /** {@code api_key | ip}: each alternative one part, tried in order. */
  private static Key alternatives(String text) {
    String[] parts = text.split("\\|", -1);
    Key key = null;
    List<String> seen = new ArrayList<>();
    for (int i = parts.length - 1; i >= 0; i--) {
      String part = parts[i].trim();
      if (part.isEmpty()) {
        throw new IllegalArgumentException(
            "'" + text + "': each alternative needs a part, e.g. api_key | ip");
      }
      if (seen.contains(part.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("'" + part + "' appears twice in the key");
      }
      seen.add(part.toLowerCase(Locale.ROOT));
      if (key != null && "global".equalsIgnoreCase(part)) {
        throw new IllegalArgumentException(
            "'global' can only be the last alternative: every request has it");
      }
      key = composite(Collections.singletonList(part), text.trim(), key);
    }
    return key;
  }

  private static Key composite(List<String> parts, String text, Key otherwise) {
    Kind[] kinds = new Kind[parts.size()];
    String[] headers = new String[parts.size()];
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      String part = parts.get(i).trim();
      if (part.regionMatches(true, 0, "header:", 0, 7)) {
        String name = part.substring(7).trim();
        if (!name.matches(HTTP_TOKEN)) {
          throw new IllegalArgumentException("'" + part + "': header:NAME needs a header name");
        }
        kinds[i] = Kind.HEADER;
        headers[i] = name.toLowerCase(Locale.ROOT);
      } else {
        kinds[i] = kindOf(part);
      }
      String canonical = kinds[i] + (headers[i] == null ? "" : headers[i]);
      if (seen.contains(canonical)) {
        throw new IllegalArgumentException("'" + part + "' appears twice in the key");
      }
      seen.add(canonical);
    }
    if (kinds.length > 1 && seen.contains(Kind.GLOBAL.toString())) {
      throw new IllegalArgumentException("'global' cannot be part of a composite key");
    }
    return new Key(kinds, headers, text, otherwise);
  }

  private static Kind kindOf(String part) {
    switch (part.toLowerCase(Locale.ROOT)) {
      case "ip":
        return Kind.IP;
      case "user":
        return Kind.USER;
      case "api_key":
        return Kind.API_KEY;
      case "global":
        return Kind.GLOBAL;
      default:
        throw new IllegalArgumentException(
            "'"
                + part
                + "' is not a key: use ip, user, api_key, header:NAME, global, a list of them"
                + " (all counted together) or alternatives such as api_key | ip");
    }
  }

  /** Whether the identity reads the user, in any part or alternative. */
  public boolean readsUser() {
    for (Kind kind : kinds) {
      if (kind == Kind.USER) {
        return true;
      }
    }
    return otherwise != null && otherwise.readsUser();
  }

  /**
   * The escaped identity of this request, or null if the request lacks a part of the key (of
   * every alternative).
   */
  String identityOf(Subject subject) {
    String identity = ownIdentityOf(subject);
    return identity != null || otherwise == null ? identity : otherwise.identityOf(subject);
  }

  private String ownIdentityOf(Subject subject) {
    if (kinds.length == 1 && kinds[0] == Kind.GLOBAL) {
      return GLOBAL;
    }
    if (kinds.length == 1) {
      String value = valueOf(0, subject);
      if (value == null || value.isEmpty()) {
        return null;
      }
      if (Identity.isPlain(value)) {
        return prefixes[0].concat(value); // the common case: one string, no builder
      }
    }
    StringBuilder sb = new StringBuilder(64);
    for (int i = 0; i < kinds.length; i++) {
      if (i > 0) {
        sb.append('&');
      }
      String value = valueOf(i, subject);
      if (value == null || value.isEmpty()) {
        return null;
      }
      sb.append(prefixes[i]);
      Identity.append(sb, value);
    }
    return sb.toString();
  }

  private String valueOf(int i, Subject subject) {
    switch (kinds[i]) {
      case IP:
        return subject.ip();
      case USER:
        return subject.request.remoteUser();
      case API_KEY:
        return subject.apiKey();
      default:
        return subject.request.header(headers[i]);
    }
  }

  /** The name of a part in the identity; a header name is escaped like a value. */
  private static String prefixOf(Kind kind, String header) {
    switch (kind) {
      case IP:
        return "ip";
      case USER:
        return "user";
      case API_KEY:
        return "key";
      case GLOBAL:
        return "global";
      default:
        // A header name may hold '*', '|', '`' and the like: escape it, or it could reach a key.
        StringBuilder sb = new StringBuilder("h.");
        Identity.append(sb, header);
        return sb.toString();
    }
  }

  @Override
  public String toString() {
    return text;
  }
}
