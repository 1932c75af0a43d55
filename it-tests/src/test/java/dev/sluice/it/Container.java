package dev.sluice.it;

import java.nio.file.Path;

/** An embedded servlet container that deploys one web app directory at the root context. */
interface Container {
  /** Deploys {@code webapp} on 127.0.0.1 at a free port and returns that port. */
  int start(Path webapp) throws Exception;

  void stop() throws Exception;
}
