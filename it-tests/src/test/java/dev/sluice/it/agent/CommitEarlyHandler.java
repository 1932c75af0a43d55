package dev.sluice.it.agent;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's twin of {@link CommitEarlyValve}: commits the response before the servlet layer (ee10;
 * ee8 needs {@link CommitEarlyEe8Handler}).
 */
final class CommitEarlyHandler extends Handler.Wrapper {
  CommitEarlyHandler(Handler handler) {
    super(handler);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (request.getHeaders().get(CommitEarlyValve.HEADER) != null) {
      try (Blocker.Callback written = Blocker.callback()) {
        response.write(false, ByteBuffer.wrap("early;".getBytes(StandardCharsets.UTF_8)), written);
        written.block();
      }
    }
    return super.handle(request, response, callback);
  }
}
