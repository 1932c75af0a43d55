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
 * RulesPublication#publishOver}), or while Redis holds none at all and it names the one in force
 * here (Redis lost the history: no write could get out otherwise). That of a local file is its
 * rules version. A write reads what is in force under the limiter's lock, talks to Redis outside
 * it, and reloads once published: this JVM answers with the new version at once, or says that it
 * could not put it in force ({@value #NOT_IN_FORCE}); the others follow within about a second.
 *
 * <p>What it shows and publishes leaves out the sections each JVM keeps of its own file ({@link
 * LocalSections}): they hold its credentials, and no published version applies them.
 */
final class LiveRulebook implements Rulebook {
  private static final Logger LOG = Logger.getLogger("dev.sluice.config");
  static final String YAML = "application/yaml;charset=utf-8";

  /** A write published in Redis that this JVM could not put in force (its problem says why). */
  static final int NOT_IN_FORCE = 500;

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
        200,
        YAML,
        new String(LocalSections.leftOut(document.content()), StandardCharsets.UTF_8),
        etagOf(document));
  }

  static String etagOf(Document document) {
    return document.config().rulesFromRedis()
        ? "\"v" + document.publishedNumber() + "\""
        : "\"" + document.version() + "\"";
  }

  @Override
  public Reply write(RulesWrite write) {
    Reply reply = writeInForce(write);
    if (reply.status() >= 300 && reply.status() != NOT_IN_FORCE) {
      // Refused: said too, as who tried what is the log's business.
      log(write, "refused, " + reply.status() + ": " + reply.detail());
    }
    return reply;
  }

  private Reply writeInForce(RulesWrite write) {
    Document inForce;
    String localFile;
    RulesPublication redis = null;
    try {
      // Only what is in force and where it is published are read under the limiter's lock: the
      // write's round trips to Redis must not hold up reads of /rules, nor the watcher's polls.
      synchronized (live) {
        inForce = live.inForce();
        RulesFromRedis from = live.fromRedis();
        if (inForce == null || !from.follows()) {
          return fromLocalFile(inForce);
        }
        localFile = from.localName();
        redis = from.publisher();
      }
      return publish(write, inForce, redis, localFile);
    } catch (RuntimeException e) {
      return Reply.problem(
          503,
          "cannot publish in "
              + (redis == null ? "the Redis of the rules" : redis)
              + " ("
              + e
              + "); nothing was changed, unless Redis published it before failing: GET the"
              + " rules to see");
    }
  }

  private static Reply fromLocalFile(Document inForce) {
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

  private Reply publish(
      RulesWrite write, Document inForce, RulesPublication redis, String localFile) {
    long basedOn = numberOf(write.ifMatch());
    byte[] base = null;
    long over = basedOn;
    if (basedOn >= 0 && basedOn == inForce.publishedNumber()) {
      base = inForce.content();
      if (basedOn > 0 && redis.current() == 0) {
        // Redis lost every version (restarted without persistence, flushed, an empty replica
        // promoted): the write builds on what is in force here, and publishes over nothing.
        over = 0;
      }
    } else if (basedOn > 0) {
      // Another JVM's ETag: a version this one has not followed yet, or no longer keeps in force.
      RulesPublication.Version version = redis.read(basedOn, ConfigSource.MAX_BYTES);
      base = version == null ? null : version.content();
    }
    if (base == null) {
      return stale(redis, inForce);
    }
    byte[] content;
    try {
      content =
          write.kind() == RulesWrite.Kind.REPLACE ? write.content() : RulesEdit.apply(base, write);
    } catch (RulesEdit.Refused e) {
      return Reply.problem(e.status, e.getMessage());
    }
    content = LocalSections.leftOut(content);
    Config config;
    try {
      config = ConfigParser.parse("rules", new String(content, StandardCharsets.UTF_8));
    } catch (InvalidConfigException e) {
      return invalid(e.errors());
    }
    String rulesVersion = RulesVersion.of(content);
    long number =
        redis.publishOver(
            over,
            content,
            rulesVersion,
            write.who(),
            write.from() + " via " + HostName.get(),
            write.message());
    if (number < 0) {
      return stale(redis, inForce);
    }
    Written written =
        new Written(
            number == 0 ? basedOn : number,
            number > 0,
            rulesVersion,
            number == 0
                ? "nothing"
                : RulesDiff.between(rulesOf(base), config.rules().rules()).toString());
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
              + written.changed
              + "; "
              + localFile
              + " is unchanged: its rules are only the fallback under rules_from: redis");
      live.reload();
    }
    Document now = live.inForce();
    if (now == null || now.publishedNumber() < written.version) {
      String problem = live.metrics().config().problem();
      LOG.warning(
          "Sluice: published version "
              + written.version
              + " in "
              + redis
              + " is not in force here: "
              + problem);
      return Reply.problem(
          NOT_IN_FORCE,
          "published as version "
              + written.version
              + " (the other JVMs of the fleet apply it on their own), but not in force here: "
              + problem,
          "\"v" + written.version + "\"",
          json -> written.write(json, config, false, localFile));
    }
    JsonWriter json = new JsonWriter().beginObject();
    written.write(json, config, true, localFile);
    return Reply.of(
        number > 0 && write.kind() == RulesWrite.Kind.ADD ? 201 : 200,
        "application/json",
        json.endObject().toString(),
        "\"v" + written.version + "\"");
  }

  /** What a write published (or found current already), as its reply says it. */
  private static final class Written {
    final long version;
    final boolean published;
    final String rulesVersion;
    final String changed;

    Written(long version, boolean published, String rulesVersion, String changed) {
      this.version = version;
      this.published = published;
      this.rulesVersion = rulesVersion;
      this.changed = changed;
    }

    void write(JsonWriter json, Config config, boolean inForceHere, String localFile) {
      json.name("version").value(version);
      json.name("published").value(published);
      json.name("inForceHere").value(inForceHere);
      json.name("rulesVersion").value(rulesVersion);
      json.name("changed").value(changed);
      json.name("localFile")
          .value(
              localFile
                  + " is unchanged: its rules are only the fallback under rules_from: redis"
                  + " (docs/operations.md says how to save the published ones to it)");
      json.name("warnings").beginArray();
      for (ConfigError warning : config.warnings()) {
        json.value(warning.field() + ": " + warning.message());
      }
      json.endArray();
    }
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
            + RulesWrite.printable(outcome));
  }

  /** The number an ETag of published rules names; -1 for any other text. */
  static long numberOf(String etag) {
    return etag.matches("\"v[0-9]{1,18}\"")
        ? Long.parseLong(etag.substring(2, etag.length() - 1))
        : -1;
  }

  /**
   * A write based on a version that is not current: 412 with the ETag to base it on, the current
   * version's, or while Redis holds none, that of the version in force here.
   */
  private static Reply stale(RulesPublication redis, Document inForce) {
    long current = redis.current();
    return Reply.problem(
        412,
        (current > 0 || inForce.publishedNumber() == 0
                ? "If-Match does not name the current version, " + current
                : "Redis holds no published version (restarted without persistence, or flushed),"
                    + " and If-Match does not name the one in force here, "
                    + inForce.publishedNumber())
            + ": the rules changed since this write's were read. GET them again and make the"
            + " change on what is in force now; nothing was changed",
        current > 0 ? "\"v" + current + "\"" : etagOf(inForce),
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
