package dev.sluice.publish;

import dev.sluice.store.redis.PublishedVersion;
import java.util.ArrayList;
import java.util.List;

/** What {@code history} prints: one line a version, newest first, in aligned columns. */
final class HistoryTable {
  private static final String[] HEADER = {
    "", "VERSION", "RULES VERSION", "PUBLISHED (UTC)", "BY", "FROM", "MESSAGE"
  };

  private HistoryTable() {}

  /** The versions as rows, {@code *} marking the one whose number is {@code current}. */
  static String of(List<PublishedVersion> versions, long current) {
    List<String[]> rows = new ArrayList<>();
    for (PublishedVersion v : versions) {
      rows.add(
          new String[] {
            v.number() == current ? "*" : "",
            Long.toString(v.number()),
            v.rulesVersion(),
            v.time(),
            v.who(),
            v.where(),
            v.note()
          });
    }
    return render(rows);
  }

  /** The header and {@code rows} in columns two spaces apart; the last column is not padded. */
  static String render(List<String[]> rows) {
    List<String[]> all = new ArrayList<>();
    all.add(HEADER);
    all.addAll(rows);
    int[] widths = new int[HEADER.length];
    for (String[] row : all) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    StringBuilder text = new StringBuilder();
    for (String[] row : all) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        line.append(row[i]);
        for (int pad = row[i].length(); i < row.length - 1 && pad < widths[i] + 2; pad++) {
          line.append(' ');
        }
      }
      text.append(rtrim(line)).append('\n');
    }
    return text.toString();
  }

  private static String rtrim(CharSequence line) {
    int end = line.length();
    while (end > 0 && line.charAt(end - 1) == ' ') {
      end--;
    }
    return line.subSequence(0, end).toString();
  }
}
