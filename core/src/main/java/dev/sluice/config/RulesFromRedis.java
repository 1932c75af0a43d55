package dev.sluice.config;

import dev.sluice.store.RedisModule;
import dev.sluice.store.RulesPublication;
import java.io.Closeable;
import java.util.Objects;
import java.util.logging.Logger;

/**
 * What a local file that says {@code rules_from: redis} puts in force: the version published in its
 * store's Redis ({@link RulesPublication}), under the local file's store, fleet, client_ip, admin and
 * {@code rules_from} ({@link Config#publishedUnder}).
 *
 * <p>Each poll reads the current version's number and the rules version Redis records with it, and
 * the content only when either changed: a number can be given again after a failover that lost the
 * last pushes, or a restart without persistence, and the log then says that the published history
 * went back. Content is parsed once per version, and not read at all when larger than a local file
 * may be ({@link ConfigSource#MAX_BYTES}). The last good version stays in force, reporting why,
 * while Redis cannot be reached, holds no version any more (emptied, or a new server) or publishes
 * one that is invalid here. The local file's own rules apply only while no published version was
 * ever read, which the log says: a JVM that never met Redis must still limit.
 */
final class RulesFromRedis implements Closeable {
  private static final Logger LOG = Logger.getLogger("dev.sluice.config");

  /**
   * The most a poll waits for Redis. Off the request path, but the watcher's thread reads the local
   * file as well, and a content of a megabyte must have time to arrive.
   */
  static final int TIMEOUT_MILLIS = 1_000;

  /** The store whose Redis is followed, and a client for it once one could be opened. */
  private StoreSettings target;

  private RulesPublication published;

  /** The number of the version read last; 0 for none. */
  private long seen;

  /**
   * The rules version Redis records with version {@link #seen}: a poll that finds {@link #seen}
   * current reads the content again when it changed (the number given again, after a failover or a
   * restart without persistence).
   */
  private String seenRecorded;

  /** The {@link RulesVersion} of version {@link #seen}'s content; null when it was not read. */
  private String seenContent;

  /** The last valid version read; null while none was. */
  private Document good;

  /** What was wrong with version {@link #seen}, when it was rejected. */
  private String rejected;

  private boolean toldLocal;

  /** The local file's last valid document, while it said rules_from: redis. */
  private Document lastLocal;

  /**
   * What to put in force for {@code local}, the local file's document (null when there is no file):
   * that document itself unless it is valid and says {@code rules_from: redis}. A local file that
   * said so and then went missing or invalid is followed as it last was, reporting its problem: a
   * broken edit of the one file that says where rules come from must not stop the pushes.
   */
  Document follow(Document local) {
    if (local == null || local.config() == null) {
      if (lastLocal == null) {
        return local; // the local file's own problem, reported as such
      }
      String problem =
          local == null
              ? "Sluice found no config at " + lastLocal.name()
              : "Sluice rejected " + local.name() + ":\n" + local.errors();
      Document followed = followValid(lastLocal);
      return followed.reporting(
          (followed.problem() == null ? "" : followed.problem() + "\n")
              + problem
              + "\nThe rules published in Redis are still followed, as its last valid version"
              + " said.");
    }
    return followValid(local);
  }

  private Document followValid(Document local) {
    if (!local.config().rulesFromRedis()) {
      close();
      return local;
    }
    if (good != null && lastLocal != null && !lastLocal.version().equals(local.version())) {
      LOG.info(
          "Sluice: "
              + local.name()
              + " changed, but its rules are only the fallback under rules_from: redis: "
              + good.name()
              + " stays in force (its store and fleet sections are taken from the file; push the"
              + " file to change the fleet's rules)");
    }
    lastLocal = local;
    String stays =
        good == null
            ? "the rules of " + local.name() + " stay in force"
            : good.name() + " stays in force";
    RulesPublication from = null;
    try {
      from = connect(local.config().store());
      long current = from.current();
      if (current == 0) {
        return nonePublished(local, from, stays);
      }
      if (current != seen || !from.rulesVersion(current).equals(seenRecorded)) {
        read(from, current, local);
      }
    } catch (RuntimeException e) {
      return inForce(local)
          .reporting(
              "Sluice cannot read the rules published in "
                  + (from == null ? "redis " + local.config().store().redis() : from)
                  + " ("
                  + e
                  + "); "
                  + stays);
    }
    return rejected == null
        ? inForce(local)
        : inForce(local)
            .reporting(
                "Sluice rejected version "
                    + seen
                    + " published in "
                    + from
                    + "; "
                    + stays
                    + ":\n"
                    + rejected);
  }

  private Document inForce(Document local) {
    return good == null ? local : good.under(local);
  }

  /** The local file's rules while nothing was ever published; the last good version after. */
  private Document nonePublished(Document local, RulesPublication from, String stays) {
    if (good != null) {
      return good.under(local)
          .reporting("Sluice found no version published in " + from + " any more; " + stays);
    }
    if (!toldLocal) {
      toldLocal = true;
      LOG.info(
          "Sluice: no version is published in "
              + from
              + " yet; the rules of "
              + local.name()
              + " are in force until one is pushed");
    }
    return local;
  }

  /** Reads and parses version {@code number}, now current. */
  private void read(RulesPublication from, long number, Document local) {
    RulesPublication.Version version = from.read(number, ConfigSource.MAX_BYTES);
    if (version == null) {
      throw new IllegalStateException(
          "version " + number + " is current, but Redis holds no content for it");
    }
    String content = version.content() == null ? null : RulesVersion.of(version.content());
    if (number < seen || (number == seen && !Objects.equals(content, seenContent))) {
      LOG.warning(wentBack(from, number, content));
    }
    seen = number;
    seenRecorded = version.rulesVersion();
    seenContent = content;
    if (version.refused() != null) {
      rejected = "published version " + number + ": not read: " + version.refused();
      return;
    }
    Document read =
        Document.parse(
                "published " + version.describe(), "published version " + number, version.content())
            .published(number);
    if (read.config() == null) {
      rejected = read.errors();
      return;
    }
    rejected = null;
    good = read;
    String kept = read.config().localSectionsDifferingFrom(local.config());
    if (kept != null) {
      LOG.info(
          "Sluice: "
              + read.name()
              + " has "
              + kept
              + " other than "
              + local.name()
              + "'s; they are not applied, as the local file keeps store, fleet, client_ip, admin"
              + " and rules_from");
    }
  }

  /** What the log says when version {@code number} is current, lower than or the same as seen. */
  private String wentBack(RulesPublication from, long number, String content) {
    return "Sluice: the history of the versions published in "
        + from
        + " went back (a Redis restarted without persistence, or a failover that lost the last"
        + " pushes): version "
        + number
        + (number < seen
            ? " is current, after version " + seen + " was read"
            : " is current again with other content (rules version "
                + content
                + ", was "
                + seenContent
                + ")")
        + "; following what is published now";
  }

  /** Whether the local file in force says rules_from: redis, and its store's Redis is followed. */
  boolean follows() {
    return lastLocal != null;
  }

  /** How the log names the local file that says rules_from: redis; only while {@link #follows}. */
  String localName() {
    return lastLocal.name();
  }

  /** The client of the Redis followed now, for a write through the admin endpoint. */
  RulesPublication publisher() {
    return connect(lastLocal.config().store());
  }

  /** The client for {@code store}'s Redis, opened anew when the local file names another one. */
  private RulesPublication connect(StoreSettings store) {
    if (!store.equals(target)) {
      closeClient();
      target = store;
      seen = 0;
    }
    if (published == null) {
      published =
          RedisModule.find().publishedRules(store.redis(), store.keyPrefix(), TIMEOUT_MILLIS);
    }
    return published;
  }

  private void closeClient() {
    if (published != null) {
      published.close();
      published = null;
    }
  }

  /** Stops following: the local file no longer says rules_from: redis, or the limiter closes. */
  @Override
  public void close() {
    closeClient();
    target = null;
    seen = 0;
    good = null;
    rejected = null;
    toldLocal = false;
    lastLocal = null;
  }
}
