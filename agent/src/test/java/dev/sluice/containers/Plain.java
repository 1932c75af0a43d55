package dev.sluice.containers;


/** Names no servlet type. */
public final class Plain {
  public String name() {
    return "plain";
  }
}
