package dev.sluice.admin;

import java.io.ByteArrayOutputStream;

/**
 * A JSON body made readable as YAML, which reads JSON but for two things: a tab where YAML allows
 * none (JSON indented with tabs) and the escape {@code \/}. Both are rewritten (a tab outside
 * strings as a space, {@code \/} as {@code /}) and nothing else, so the text means what it meant.
 */
final class JsonBody {
  private JsonBody() {}

  static byte[] asYaml(byte[] json) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(json.length);
    boolean inString = false;
    for (int i = 0; i < json.length; i++) {
      byte b = json[i];
      if (inString && b == '\\' && i + 1 < json.length) {
        if (json[i + 1] != '/') {
          out.write(b);
        }
        out.write(json[++i]);
        continue;
      }
      if (b == '"') {
        inString = !inString;
      }
      out.write(!inString && b == '\t' ? ' ' : b);
    }
    return out.toByteArray();
  }
}
