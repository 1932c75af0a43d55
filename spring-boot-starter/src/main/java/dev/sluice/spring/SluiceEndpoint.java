package dev.sluice.spring;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.admin.AdminEndpoint;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code /actuator/sluice}: what {@code <admin>/status} shows (docs/operations.md describes its
 * fields), exposed and secured as the application's other Actuator endpoints are, whether or not
 * ratelimit.yaml turns its own admin endpoint on.
 */
@Endpoint(id = "sluice")
public class SluiceEndpoint {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};

  private final AdminEndpoint admin;

  public SluiceEndpoint(AdminEndpoint admin) {
    this.admin = admin;
  }

  /** The status document, read back as a map so that Actuator writes it its own way. */
  @ReadOperation
  public Map<String, Object> status() throws JsonProcessingException {
    return JSON.readValue(admin.statusJson(), OBJECT);
  }
}
