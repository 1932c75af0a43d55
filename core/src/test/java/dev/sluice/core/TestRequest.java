package dev.sluice.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A request built by hand: {@code TestRequest.get("/api/x").from("10.0.0.1").header(...)}. */
public final class TestRequest implements RequestView {
  private final String method;
  private final String path;
  private String remoteAddress = "192.0.2.1";
  private String remoteUser;
  private final Map<String, List<String>> headers = new LinkedHashMap<>();

  public TestRequest(String method, String path) {
    this.method = method;
    this.path = path;
  }

  public static TestRequest get(String path) {
    return new TestRequest("GET", path);
  }

  public static TestRequest post(String path) {
    return new TestRequest("POST", path);
  }

  public TestRequest from(String address) {
    this.remoteAddress = address;
    return this;
  }

  public TestRequest user(String user) {
    this.remoteUser = user;
    return this;
  }

  /** Adds one value; calling it again for the same name adds another header line. */
  public TestRequest header(String name, String value) {
    headers.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(value);
    return this;
  }

  @Override
  public String method() {
    return method;
  }

  @Override
  public String path() {
    return path;
  }

  @Override
  public String remoteAddress() {
    return remoteAddress;
  }

  @Override
  public String header(String name) {
    List<String> values = headers(name);
    return values.isEmpty() ? null : values.get(0);
  }

  @Override
  public List<String> headers(String name) {
    List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
    return values == null ? Collections.emptyList() : values;
  }

  @Override
  public String remoteUser() {
    return remoteUser;
  }
}
