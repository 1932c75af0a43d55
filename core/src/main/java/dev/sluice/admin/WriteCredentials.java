package dev.sluice.admin;

import dev.sluice.support.ShortHash;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code admin.write_token} credentials, each a name and a token kept only as its SHA-256: the
 * name is who a write was, in the log and in the published history. A token is compared with every
 * credential's, whatever matched before, in constant time: neither which credential a guess came
 * close to nor how close shows in the time of the answer.
 */
public final class WriteCredentials {
  /** No credential: writes are off. */
  public static final WriteCredentials NONE = new WriteCredentials(new LinkedHashMap<>());

  private final String[] names;
  private final byte[][] digests;

  /**
   * @param tokens each credential's name and token, in the file's order
   */
  public WriteCredentials(Map<String, String> tokens) {
    names = tokens.keySet().toArray(new String[0]);
    digests = new byte[names.length][];
    for (int i = 0; i < names.length; i++) {
      digests[i] = ShortHash.sha256(tokens.get(names[i]));
    }
  }

  /** The name of the credential whose token {@code token} is; null for none. */
  String nameOf(String token) {
    if (token == null) {
      return null;
    }
    byte[] given = ShortHash.sha256(token);
    String found = null;
    for (int i = 0; i < digests.length; i++) {
      if (MessageDigest.isEqual(digests[i], given) && found == null) {
        found = names[i];
      }
    }
    return found;
  }

  boolean isEmpty() {
    return names.length == 0;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof WriteCredentials)) {
      return false;
    }
    WriteCredentials other = (WriteCredentials) o;
    return Arrays.equals(names, other.names) && Arrays.deepEquals(digests, other.digests);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(names);
  }

  /** The names, never a token. */
  @Override
  public String toString() {
    List<String> list = new ArrayList<>(Arrays.asList(names));
    return list.toString();
  }
}
