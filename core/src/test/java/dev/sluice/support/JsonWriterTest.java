package dev.sluice.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

class JsonWriterTest {
  @Test
  void placesCommasAndNestsAsAsked() {
    String json =
        new JsonWriter()
            .beginObject()
            .name("a")
            .value(1)
            .name("b")
            .beginArray()
            .value("x")
            .value(true)
            .value((String) null)
            .beginObject()
            .endObject()
            .endArray()
            .name("c")
            .value(0.5)
            .name("d")
            .value(Double.NaN)
            .endObject()
            .toString();
    assertThat(json).isEqualTo("{\"a\":1,\"b\":[\"x\",true,null,{}],\"c\":0.5,\"d\":null}");
  }

  @Test
  void anyStringSurvivesAndNoneCanCloseAScriptOrStartMarkup() {
    String hostile = "</script><img src=x onerror=alert(1)>\"\\\n\t\u2028&\ud83d\ude00";
    String json =
        new JsonWriter().beginObject().name(hostile).value(hostile).endObject().toString();
    assertThat(json).doesNotContain("<", ">", "&", "\n", "\u2028");
    @SuppressWarnings("unchecked")
    Map<String, Object> parsed = (Map<String, Object>) new Yaml().load(json);
    assertThat(parsed).containsEntry(hostile, hostile);
    Object list = new Yaml().load(new JsonWriter().beginArray().value("é").endArray().toString());
    assertThat(list).isEqualTo(List.of("é"));
    assertThat(new JsonWriter().value("\ud800").toString()).isEqualTo("\"\\ud800\"");
  }
}
