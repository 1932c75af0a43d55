package dev.sluice.admin;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Locale;

/**
 * A body as the UTF-8 that Sluice reads files in, decoded from the charset its {@code Content-Type}
 * declares (UTF-8 when it declares none, as JSON and YAML are). A byte sequence that is not valid in
 * that charset is refused rather than read as U+FFFD: a path with a replacement character in it
 * would be published, valid, and match no request ever.
 */
final class BodyText {
  private BodyText() {}

  /** Why a body cannot be read: what the 400 says. */
  static final class Unreadable extends Exception {
    Unreadable(String message) {
      super(message);
    }
  }

  /** {@code body} in UTF-8, decoded as {@code contentType} (null for none) declares. */
  static byte[] utf8(byte[] body, String contentType) throws Unreadable {
    Charset charset = charsetOf(contentType);
    String text;
    try {
      text =
          charset
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(body))
              .toString();
    } catch (CharacterCodingException e) {
      throw new Unreadable(
          "the body is not valid "
              + charset.name()
              + " ("
              + e.getMessage()
              + "); send it in UTF-8, or name its charset in Content-Type");
    }
    return charset.equals(StandardCharsets.UTF_8) ? body : text.getBytes(StandardCharsets.UTF_8);
  }

  private static Charset charsetOf(String contentType) throws Unreadable {
    if (contentType == null) {
      return StandardCharsets.UTF_8;
    }
    for (String parameter : contentType.split(";")) {
      int equals = parameter.indexOf('=');
      if (equals > 0
          && parameter.substring(0, equals).trim().toLowerCase(Locale.ROOT).equals("charset")) {
        String name = parameter.substring(equals + 1).trim().replace("\"", "");
        try {
          return Charset.forName(name);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
          throw new Unreadable(
              "Content-Type names a charset this JVM cannot read"
                  + (name.matches("[A-Za-z0-9._:+-]{1,40}") ? ", " + name : "")
                  + "; send the body in UTF-8");
        }
      }
    }
    return StandardCharsets.UTF_8;
  }
}
