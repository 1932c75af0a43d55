package dev.sluice.it.browser;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Content Security Policy the admin endpoint serves the status page with: nothing but the
 * page's one inline script and one inline style, each allowed by its hash, and fetches to its own
 * origin. A browser hashes an inline element's text exactly as written between its tags, as UTF-8,
 * so that is what is hashed here.
 */
final class StatusPagePolicy {
  private StatusPagePolicy() {}

  static String of(String page) {
    return "default-src 'none'; script-src '"
        + hashOfOnly(page, "script")
        + "'; style-src '"
        + hashOfOnly(page, "style")
        + "'; connect-src 'self'; img-src data:; frame-ancestors 'none'";
  }

  /** The hash of the text of the page's only {@code <tag>} element, which has no attributes. */
  static String hashOfOnly(String page, String tag) {
    Matcher elements = Pattern.compile("<" + tag + "\\b", Pattern.CASE_INSENSITIVE).matcher(page);
    long count = elements.results().count();
    if (count != 1) {
      throw new IllegalArgumentException(
          "the page has " + count + " <" + tag + "> elements, not 1");
    }
    Matcher element =
        Pattern.compile("<" + tag + ">(.*?)</" + tag + ">", Pattern.DOTALL).matcher(page);
    if (!element.find()) {
      throw new IllegalArgumentException("the page's <" + tag + "> has attributes or no end");
    }
    try {
      byte[] text = element.group(1).getBytes(StandardCharsets.UTF_8);
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(text);
      return "sha256-" + Base64.getEncoder().encodeToString(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
