package dev.sluice.it.bootredis;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import redis.clients.jedis.Jedis;

/**
 * The app's own use of Redis, through Spring Data: {@code GET /api/notes/{key}?write=v} stores v,
 * {@code GET /api/notes/{key}} reads it back. {@code GET /libraries} says which Redis client and
 * Jedis the app runs on.
 */
@RestController
class NotesController {
  private static final String PREFIX = "note:";

  private final StringRedisTemplate redis;
  private final RedisConnectionFactory connections;

  NotesController(StringRedisTemplate redis, RedisConnectionFactory connections) {
    this.redis = redis;
    this.connections = connections;
  }

  @GetMapping("/api/notes/{key}")
  String note(@PathVariable String key, @RequestParam(required = false) String write) {
    if (write != null) {
      redis.opsForValue().set(PREFIX + key, write);
    }
    String value = redis.opsForValue().get(PREFIX + key);
    return value == null ? "" : value;
  }

  @GetMapping("/libraries")
  String libraries() throws IOException {
    Properties jedis = new Properties();
    try (InputStream in =
        Jedis.class.getResourceAsStream("/META-INF/maven/redis.clients/jedis/pom.properties")) {
      if (in != null) {
        jedis.load(in);
      }
    }
    return "connections="
        + connections.getClass().getSimpleName()
        + "\njedis="
        + jedis.getProperty("version", "unknown")
        + "\n";
  }
}
