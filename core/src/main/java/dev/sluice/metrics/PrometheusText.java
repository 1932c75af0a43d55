package dev.sluice.metrics;

/**
 * Writes the Prometheus text exposition format, version 0.0.4: each family's {@code # HELP} and
 * {@code # TYPE} lines, then its samples, label values and help escaped as the format says.
 */
public final class PrometheusText {
  /** The media type to serve the text as. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final StringBuilder out = new StringBuilder(4096);

  /**
   * Starts the family {@code name} of {@code type} (counter, gauge, histogram); its samples must
   * follow before the next family starts.
   */
  PrometheusText family(String name, String type, String help) {
    out.append("# HELP ").append(name).append(' ');
    escape(help, false);
    out.append("\n# TYPE ").append(name).append(' ').append(type).append('\n');
    return this;
  }

  /** One sample; {@code labels} alternates names and values. */
  PrometheusText sample(String name, long value, String... labels) {
    start(name, labels);
    out.append(value).append('\n');
    return this;
  }

  /** One sample; {@code labels} alternates names and values. */
  PrometheusText sample(String name, double value, String... labels) {
    start(name, labels);
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      out.append((long) value);
    } else {
      out.append(value);
    }
    out.append('\n');
    return this;
  }

  private void start(String name, String[] labels) {
    out.append(name);
    for (int i = 0; i < labels.length; i += 2) {
      out.append(i == 0 ? '{' : ',').append(labels[i]).append("=\"");
      escape(labels[i + 1], true);
      out.append('"');
    }
    if (labels.length > 0) {
      out.append('}');
    }
    out.append(' ');
  }

  /**
   * Escapes backslash and newline, and in a label value the double quote too: the format allows no
   * other escapes, and takes everything else (UTF-8) as it is.
   */
  private void escape(String text, boolean labelValue) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\') {
        out.append("\\\\");
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '"' && labelValue) {
        out.append("\\\"");
      } else {
        out.append(c);
      }
    }
  }

  String text() {
    return out.toString();
  }
}
