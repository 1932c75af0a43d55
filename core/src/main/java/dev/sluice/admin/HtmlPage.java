package dev.sluice.admin;

import dev.sluice.support.Bounded;
import dev.sluice.support.ShortHash;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * One of the endpoint's self-contained pages ({@code status.html}, {@code login.html}), served with
 * a Content-Security-Policy that lets run exactly its own inline script and style, by their hashes,
 * and nothing from anywhere else. Whatever a client managed to put into the data the status page
 * shows (an identity is a header's value), no other script can run there, and neither page can be
 * framed.
 */
public final class HtmlPage {
  private static final int MAX_BYTES = 1 << 20;

  private final String html;
  private final String contentSecurityPolicy;

  private HtmlPage(String html, String directives) {
    this.html = html;
    String script = html.contains("<script>") ? "'" + hashOf(html, "script") + "'" : "'none'";
    this.contentSecurityPolicy =
        "default-src 'none'; script-src "
            + script
            + "; style-src '"
            + hashOf(html, "style")
            + "'; "
            + directives
            + "; base-uri 'none'; frame-ancestors 'none'";
  }

  /** The status page: it polls {@code status} from where it came, and sends no form. */
  public static HtmlPage status() {
    return load("status.html", "connect-src 'self'; img-src data:; form-action 'none'");
  }

  /** The login form: no script, and its one form posts only to where it came from. */
  static HtmlPage login() {
    return load("login.html", "img-src data:; form-action 'self'");
  }

  private static HtmlPage load(String resource, String directives) {
    try (InputStream in = HtmlPage.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("the jar lacks dev/sluice/admin/" + resource);
      }
      byte[] bytes = Bounded.read(in, MAX_BYTES);
      if (bytes == null) {
        throw new IllegalStateException("dev/sluice/admin/" + resource + " is over a MiB");
      }
      return new HtmlPage(new String(bytes, StandardCharsets.UTF_8), directives);
    } catch (IOException e) {
      throw new IllegalStateException("could not read dev/sluice/admin/" + resource, e);
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
      throw new IllegalStateException("a page must hold exactly one plain " + open);
    }
    String text = html.substring(start + open.length(), end);
    return "sha256-" + Base64.getEncoder().encodeToString(ShortHash.sha256(text));
  }
}
