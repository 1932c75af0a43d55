package dev.sluice.it.agent.dist;

import dev.sluice.it.jvm.ChildJvm;

/** A {@link SupportedServer} started: its process, its HTTP port, how to stop and remove it. */
public final class RunningServer {
  /** A step of stopping or removing the server. */
  interface Step {
    void run() throws Exception;
  }

  private final ChildJvm process;
  private final int port;
  private final Step stop;
  private final Step delete;

  RunningServer(ChildJvm process, int port, Step stop, Step delete) {
    this.process = process;
    this.port = port;
    this.stop = stop;
    this.delete = delete;
  }

  /** What was started: the server's JVM, or the script that runs it as its child. */
  public ChildJvm process() {
    return process;
  }

  /** The server's JVM: {@link #process} or the java process under it ({@link Processes#java}). */
  public long javaPid() {
    return Processes.java(process);
  }

  /** Its HTTP port on 127.0.0.1. */
  public int port() {
    return port;
  }

  /**
   * Stops it as an operator does (SIGTERM; Payara: {@code asadmin stop-domain}), bounded in time,
   * then kills the process started, should it still run, and deletes the server's directories.
   */
  public void stopAndDelete() throws Exception {
    try {
      stop.run();
    } finally {
      process.close();
      delete.run();
    }
  }
}
