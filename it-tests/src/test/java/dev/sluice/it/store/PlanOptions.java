package dev.sluice.it.store;

import java.lang.reflect.RecordComponent;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The options of a simulation's plan, a record whose first field is the Redis seeds (found at run
 * time, never an option) and whose other fields are ints, longs, doubles or strings: each is the
 * option {@code --field-name=value} (the field's name, dashed), and a child JVM gets the plan back
 * as arguments. One mechanism for {@link FleetSimulation.Plan} and {@link BoundsPlan}.
 */
final class PlanOptions {
  private PlanOptions() {}

  /** Every field but the seeds, by its option name. */
  static Map<String, String> values(Record plan) {
    Map<String, String> values = new LinkedHashMap<>();
    RecordComponent[] fields = plan.getClass().getRecordComponents();
    for (RecordComponent field : Arrays.asList(fields).subList(1, fields.length)) {
      try {
        values.put(option(field), String.valueOf(field.getAccessor().invoke(plan)));
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
    return values;
  }

  /** {@code defaults} with {@code --name=value} options (names as in {@link #values}) applied. */
  static <T extends Record> T parse(T defaults, String... args) {
    Map<String, String> values = values(defaults);
    for (String arg : args) {
      String[] kv = arg.replaceFirst("^--", "").split("=", 2);
      if (!values.containsKey(kv[0]) || kv.length != 2) {
        throw new IllegalArgumentException("unknown option " + arg + "; options: " + values);
      }
      values.put(kv[0], kv[1]);
    }
    return fromValues(defaults, List.of(), values);
  }

  /** {@code plan} with other seeds. */
  static <T extends Record> T withSeeds(T plan, List<URI> seeds) {
    return fromValues(plan, seeds, values(plan));
  }

  /** The plan as a child's arguments: seeds, then name=value pairs; the child adds its own. */
  static List<String> memberArgs(Record plan, List<URI> seeds) {
    List<String> args = new ArrayList<>();
    args.add(seeds.stream().map(URI::toString).collect(Collectors.joining(",")));
    values(plan).forEach((name, value) -> args.add(name + "=" + value));
    return args;
  }

  /**
   * {@link #memberArgs} read back into a plan like {@code defaults}; the child's own {@code own}
   * arguments follow them.
   */
  static <T extends Record> T fromMemberArgs(T defaults, String[] args, int own) {
    List<URI> seeds = Arrays.stream(args[0].split(",")).map(URI::create).toList();
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 1; i < args.length - own; i++) {
      String[] kv = args[i].split("=", 2);
      values.put(kv[0], kv[1]);
    }
    return fromValues(defaults, seeds, values);
  }

  /** A plan of the type of {@code like}, of {@code seeds} and the other fields as named. */
  static <T extends Record> T fromValues(T like, List<URI> seeds, Map<String, String> values) {
    RecordComponent[] fields = like.getClass().getRecordComponents();
    Class<?>[] types = new Class<?>[fields.length];
    Object[] args = new Object[fields.length];
    for (int i = 0; i < fields.length; i++) {
      types[i] = fields[i].getType();
      String value = values.get(option(fields[i]));
      args[i] =
          i == 0
              ? seeds
              : types[i] == int.class
                  ? (Object) Integer.parseInt(value)
                  : types[i] == long.class
                      ? (Object) Long.parseLong(value)
                      : types[i] == double.class ? (Object) Double.parseDouble(value) : value;
    }
    try {
      @SuppressWarnings("unchecked")
      T plan = (T) like.getClass().getDeclaredConstructor(types).newInstance(args);
      return plan;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String option(RecordComponent field) {
    return field.getName().replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
  }
}
