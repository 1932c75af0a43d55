package dev.sluice.support;

import java.util.Locale;

/** The known word a typo most likely stands for, so a message can ask "did you mean limit?". */
public final class Nearest {
  /**
   * Edits a typo may be away from what it meant; more, and the guess misleads more than it helps.
   */
  private static final int MAX_EDITS = 2;

  private Nearest() {}

  /**
   * The one of {@code known} fewest edits away from {@code given} (the first on a tie), ignoring
   * case; null when none is within {@link #MAX_EDITS} or the word is too short for a guess.
   */
  public static String to(String given, String... known) {
    String nearest = null;
    int fewest = Math.min(MAX_EDITS, given.length() - 1);
    for (String candidate : known) {
      int edits = edits(given.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
      if (edits <= fewest && (nearest == null || edits < fewest)) {
        nearest = candidate;
        fewest = edits;
      }
    }
    return nearest;
  }

  /** ", did you mean {@code nearest}?" when there is a guess; else nothing. */
  public static String hint(String given, String... known) {
    String nearest = to(given, known);
    return nearest == null ? "" : ", did you mean " + nearest + "?";
  }

  /**
   * Insertions, deletions, substitutions and swaps of neighbours turning {@code a} into {@code b}
   * (optimal string alignment): {@code limt} is one from {@code limit}, {@code PSOT} one from
   * {@code POST}.
   */
  static int edits(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int substitution = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] =
            Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + substitution);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
