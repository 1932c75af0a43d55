package dev.sluice.store;

import dev.sluice.algo.State;

/**
 * One identity's state under one rule, guarded by its own monitor. A cell marked dead has been
 * swept from its table; whoever still holds it must look the identity up again.
 */
final class Cell extends State {
  boolean dead;
}
