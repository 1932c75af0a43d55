package dev.sluice.store.redis;

/**
 * What the scripts take as "now". In production always {@link #REDIS}: Redis TIME, one clock for
 * the whole fleet. A test may dictate an exact time ({@code "=<microseconds>"}) to drive the
 * scripts the way the memory store is driven, by hand.
 */
public interface ScriptTime {
  ScriptTime REDIS = () -> "0";

  /** The time argument every script passes to {@code time.lua}. */
  String arg();
}
