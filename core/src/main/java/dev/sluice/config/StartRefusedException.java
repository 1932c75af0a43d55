package dev.sluice.config;

/**
 * The application must not start: {@link OnInvalidConfig#REFUSE_START} was chosen and there is no
 * valid ratelimit.yaml to put in force. The message says why, with the file, line and field of each
 * error.
 */
public final class StartRefusedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StartRefusedException(String message) {
    super(message);
  }

  public StartRefusedException(String message, Throwable cause) {
    super(message, cause);
  }
}
