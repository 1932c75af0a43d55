package dev.sluice.config;

import dev.sluice.admin.Reply;
import dev.sluice.admin.Rulebook;
import dev.sluice.admin.RulesWrite;
import dev.sluice.store.RulesPublication;
import dev.sluice.support.HostName;
import dev.sluice.support.JsonWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.logging.Logger;

/**
 * The admin endpoint's {@code /rules} over a {@link LiveLimiter}: the document in force, and writes
 * published in Redis as {@code push} publishes (checked as {@code check} checks a file, recorded in
 * the history with who and why, in force across the fleet, undone by {@code rollback}). A local
 * file is never rewritten: a write there answers 409, saying how to change it.
 *
 * <p>The ETag of published rules is {@code "v<number>"} ({@code "v0"} while the local file's rules
 * are in force, none published), and a write publishes only while that version is current ({@link
 * RulesPublication#publishOver}); that of a local file is its rules version. Writes run under the
 * limiter's lock, as a reload does, and reload it once published: this JVM answers with the new
 * version at once, the others within about a second.
 */
final class LiveRulebook implements Rulebook {
  private static final Logger LOG = Logger.getLogger("dev.sluice.config");
  static final String YAML = "application/yaml;charset=utf-8";

  private final LiveLimiter live;

  LiveRulebook(LiveLimiter live) {
    this.live = live;
  }

  @Override
  public Reply read() {
    Document document = live.inForce();
    if (document == null) {
      return Reply.problem(404, "no rules are in force: the config was never valid");
    }
    return Reply.of(
        200, YAML, new String(document.content(), StandardCharsets.UTF_8), etagOf(document));
  }

  static String etagOf(Document document) {
    return document.config().rulesFromRedis()
        ? "\"v" + document.publishedNumber() + "\""
        : "\"" + document.version() + "\"";
  }

  @Override
  public Reply write(RulesWrite write) {
    Reply reply;
    synchronized (live) {
      reply = writeInForce(write);
    }
    if (reply.status() >= 300) {
      // Refused: said too, as who tried what is the log's business.
      log(write, "refused, " + reply.status() + ": " + reply.detail());
    }
    return reply;
  }

  private Reply writeInForce(RulesWrite write) {
    Document inForce = live.inForce();
    RulesFromRedis from = live.fromRedis();
    if (inForce == null || !from.follows()) {
      return Reply.problem(
          409,
          "the rules come from the local file"
              + (inForce == null ? "" : " " + inForce.name())
              + ", which this endpoint never rewrites: edit that file (every JVM reads its own"
              + " within a second), or say rules_from: redis in it to publish rules through this"
              + " endpoint or push (docs/publishing.md)",
          inForce == null ? null : etagOf(inForce),
          json -> {});
    }
    RulesPublication redis = null;
    try {
      redis = from.publisher();
      return publish(write, inForce, redis);
    } catch (RuntimeException e) {
      return Reply.problem(
          503,
          "cannot publish in "
              + (redis == null ? "redis " + inForce.config().store().redis() : redis)
              + " ("
              + e
              + "); nothing was changed, unless Redis published it before failing: GET the"
              + " rules to see");
    }
  }

  private Reply publish(RulesWrite write, Document inForce, RulesPublication redis) {
    long basedOn = numberOf(write.ifMatch());
    byte[] base = basedOn == inForce.publishedNumber() ? inForce.content() : null;
    if (base == null && basedOn > 0) {
      // Another JVM's ETag: a version this one has not followed yet, or no longer keeps in force.
      RulesPublication.Version version = redis.read(basedOn, ConfigSource.MAX_BYTES);
      base = version == null ? null : version.content();
    }
    if (base == null) {
      return stale(redis);
    }
    byte[] content;
    try {
      content =
          write.kind() == RulesWrite.Kind.REPLACE ? write.content() : RulesEdit.apply(base, write);
    } catch (RulesEdit.Refused e) {
      return Reply.problem(e.status, e.getMessage());
    }
    Config config;
    try {
      config = ConfigParser.parse("rules", new String(content, StandardCharsets.UTF_8));
    } catch (InvalidConfigException e) {
      return invalid(e.errors());
    }
    String rulesVersion = RulesVersion.of(content);
    long number =
        redis.publishOver(
            basedOn,
            content,
            rulesVersion,
            write.who(),
            write.from() + " via " + HostName.get(),
            write.message());
    if (number < 0) {
      return stale(redis);
    }
    String changed =
        number == 0
            ? "nothing"
            : RulesDiff.between(rulesOf(base), config.rules().rules()).toString();
    if (number == 0) {
      log(write, "nothing published, version " + basedOn + " has this content already");
    } else {
      log(
          write,
          "published version "
              + number
              + " (rules version "
              + rulesVersion
              + ") in "
              + redis
              + (write.message().isEmpty() ? "" : ": " + write.message())
              + "; "
              + changed);
      live.reload();
    }
    JsonWriter json = new JsonWriter().beginObject();
    json.name("version").value(number == 0 ? basedOn : number);
    json.name("published").value(number > 0);
    json.name("rulesVersion").value(rulesVersion);
    json.name("changed").value(changed);
    json.name("warnings").beginArray();
    for (ConfigError warning : config.warnings()) {
      json.value(warning.field() + ": " + warning.message());
    }
    json.endArray();
    return Reply.of(
        number > 0 && write.kind() == RulesWrite.Kind.ADD ? 201 : 200,
        "application/json",
        json.endObject().toString(),
        "\"v" + (number == 0 ? basedOn : number) + "\"");
  }

  /** Logs what came of {@code write}: who, from where, what, and {@code outcome}. */
  private static void log(RulesWrite write, String outcome) {
    LOG.info(
        "Sluice: "
            + write.who()
            + " (from "
            + write.from()
            + ") "
            + write.describe()
            + " through the admin endpoint: "
            + outcome);
  }

  /** The number an ETag of published rules names; -1 for any other text. */
  static long numberOf(String etag) {
    return etag.matches("\"v[0-9]{1,18}\"")
        ? Long.parseLong(etag.substring(2, etag.length() - 1))
        : -1;
  }

  private static Reply stale(RulesPublication redis) {
    long current = redis.current();
    return Reply.problem(
        412,
        "If-Match does not name the current version, "
            + current
            + ": the rules changed since this write's were read. GET them again and make the"
            + " change on what is in force now; nothing was changed",
        "\"v" + current + "\"",
        json -> {});
  }

  private static Reply invalid(List<ConfigError> errors) {
    return Reply.problem(
        400,
        errors.size()
            + (errors.size() == 1 ? " error" : " errors")
            + ", as check reports them; nothing was changed",
        null,
        json -> {
          json.name("errors").beginArray();
          for (ConfigError error : errors) {
            json.beginObject();
            json.name("line").value(error.line());
            json.name("column").value(error.column());
            json.name("field").value(error.field());
            json.name("message").value(error.message());
            json.endObject();
          }
          json.endArray();
        });
  }

  /** The rules of {@code content}; none when it is not valid here (a version written by hand). */
  private static List<dev.sluice.core.Rule> rulesOf(byte[] content) {
    try {
      return ConfigParser.parse("base", new String(content, StandardCharsets.UTF_8))
          .rules()
          .rules();
    } catch (InvalidConfigException e) {
      return java.util.Collections.emptyList();
    }
  }
}
