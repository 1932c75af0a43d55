package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class QueryTest {
  @Test
  void decodesAsAFormIsEncoded() {
    Query query =
        new Query("path=%2Flogin%3Fx&header.X-API-Key=a+b%C3%A9&flag&&method=post&x=1&x=2");
    assertThat(query.get("path", null)).isEqualTo("/login?x");
    assertThat(query.get("header.X-API-Key", null)).isEqualTo("a bé");
    assertThat(query.get("flag", null)).isEmpty();
    assertThat(query.get("absent", "fallback")).isEqualTo("fallback");
    assertThat(query.all().get("x")).isEqualTo(List.of("1", "2"));
  }

  @Test
  void junkDecodesToSomethingNeverToAnError() {
    assertThat(Query.decode("%")).isEqualTo("%");
    assertThat(Query.decode("%4")).isEqualTo("%4");
    assertThat(Query.decode("%zz%41")).isEqualTo("%zzA");
    assertThat(Query.decode("%FF")).isEqualTo("\ufffd");
    assertThat(Query.decode("😀+")).isEqualTo("😀 ");
    assertThat(new Query(null).all()).isEmpty();
    assertThat(new Query("=v").get("", null)).isEqualTo("v");
  }
}
