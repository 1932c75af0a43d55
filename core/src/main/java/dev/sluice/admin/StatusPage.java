package dev.sluice.admin;

import dev.sluice.support.ShortHash;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * {@code GET <admin>/}: status.html, one self-contained page, served with a Content-Security-Policy
 * that lets run exactly its own inline script and style, by their hashes, and lets them fetch only
 * from where the page came. Whatever a client managed to put into the data the page shows (an
 * identity is a header's value), no other script can run there, and the page cannot be framed.
 */
public final class StatusPage {
  static final String RESOURCE = "status.html";

  private final String html;
  private final String contentSecurityPolicy;

  private StatusPage(String html) {
    this.html = html;
    this.contentSecurityPolicy =
        "default-src 'none'; script-src '"
            + hashOf(html, "script")
            + "'; style-src '"
            + hashOf(html, "style")
            + "'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none';"
            + " frame-ancestors 'none'";
  }

  public static StatusPage load() {
    try (InputStream in = StatusPage.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the jar lacks dev/sluice/admin/" + RESOURCE);
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      for (int n; (n = in.read(buffer)) > 0; ) {
        out.write(buffer, 0, n);
      }
      return new StatusPage(new String(out.toByteArray(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException("could not read dev/sluice/admin/" + RESOURCE, e);
    }
  }

  public String html() {
    return html;
  }

  public String contentSecurityPolicy() {
    return contentSecurityPolicy;
  }

  /** {@code sha256-<base64>} of the text of the page's one {@code <element>}. */
  static String hashOf(String html, String element) {
    String open = "<" + element + ">";
    String close = "</" + element + ">";
    int start = html.indexOf(open);
    int end = html.indexOf(close, start + 1);
    if (start < 0 || end < 0 || html.indexOf(open, start + 1) >= 0) {
      throw new IllegalStateException(RESOURCE + " must hold exactly one plain " + open);
    }
    String text = html.substring(start + open.length(), end);
    return "sha256-" + Base64.getEncoder().encodeToString(ShortHash.sha256(text));
  }
}
