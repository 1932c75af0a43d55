package dev.sluice.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class HistoryTableTest {
  @Test
  void columnsAreAlignedAndTheCurrentVersionMarked() {
    String table =
        HistoryTable.render(
            List.of(
                new String[] {
                  "*",
                  "12",
                  "8e41d07b5a13",
                  "2025-06-01T10:22:03Z",
                  "alice",
                  "laptop",
                  "raise login"
                },
                new String[] {
                  "", "9", "3f2a9c0d41be", "2025-05-30T08:00:00Z", "ci-bot", "runner-7", ""
                }));
    assertThat(table)
        .isEqualTo(
            """
               VERSION  RULES VERSION  PUBLISHED (UTC)       BY      FROM      MESSAGE
            *  12       8e41d07b5a13   2025-06-01T10:22:03Z  alice   laptop    raise login
               9        3f2a9c0d41be   2025-05-30T08:00:00Z  ci-bot  runner-7
            """);
  }
}
