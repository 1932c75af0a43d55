package dev.sluice.it.agent;

import java.io.IOException;
import java.io.PrintWriter;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;

/**
 * A container-level component that sends the response before the servlet layer runs, for requests
 * that ask with {@code X-Commit-Early}: what a logging or banner valve can do in a real server.
 * Only calls whose signatures are the same in Tomcat 9, 10.1 and 11 (no Servlet API types).
 */
public final class CommitEarlyValve extends ValveBase {
  static final String HEADER = "X-Commit-Early";

  public CommitEarlyValve() {
    super(true);
  }

  /**
   * Declares no ServletException (javax in Tomcat 9, jakarta later): Tomcat's JMX registration
   * reads this method's signature, and a name missing from the container would fail it.
   */
  @Override
  public void invoke(Request request, Response response) throws IOException {
    if (request.getHeader(HEADER) != null) {
      PrintWriter writer = response.getWriter();
      writer.write("early;");
      writer.flush();
      response.flushBuffer();
    }
    try {
      getNext().invoke(request, response);
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw CommitEarlyValve.<RuntimeException>unchecked(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static <T extends Exception> T unchecked(Exception e) throws T {
    throw (T) e;
  }
}
