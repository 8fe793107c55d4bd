package io.parry.gateway.internal.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A mapping of the configuration with the keys it may hold, read one typed setting at a time. A
 * setting that is absent gives its default; one that is wrong gives its default too, after an error
 * that names it, says what is expected and what was found, so that reading goes on and every error
 * in the file is reported.
 */
final class Section {
    private final YamlMap map;
    private final String context;
    private final ConfigErrors errors;

    private Section(YamlMap map, String context, ConfigErrors errors) {
        this.map = map;
        this.context = context;
        this.errors = errors;
    }

    /**
     * The section in {@code node}, with an error for each key not in {@code keys}; {@code null} after
     * an error if the node is not a mapping.
     *
     * @param name the key the node is under, for the type error
     * @param context how messages name the section, such as {@code route 'todos' proxy}
     */
    static Section of(YamlNode node, String name, String context, ConfigErrors errors, List<String> keys) {
        if (!(node instanceof YamlMap)) {
            errors.add(
                    node.location(),
                    "'" + name + "' must be a mapping with keys " + String.join(", ", keys) + ", got "
                            + node.describe());
            return null;
        }
        YamlMap map = (YamlMap) node;
        for (YamlEntry entry : map.entries()) {
            if (!keys.contains(entry.key())) {
                String closest = ClosestName.of(entry.key(), keys);
                errors.add(
                        entry.keyLocation(),
                        "unknown key '" + entry.key() + "' in " + context
                                + (closest == null ? "" : ", did you mean '" + closest + "'?")
                                + " (expected one of: " + String.join(", ", keys) + ")");
            }
        }
        return new Section(map, context, errors);
    }

    String context() {
        return context;
    }

    Location location() {
        return map.location();
    }

    boolean has(String key) {
        return map.entry(key) != null;
    }

    /** The value under the key, or {@code null}. */
    YamlNode node(String key) {
        YamlEntry entry = map.entry(key);
        return entry == null ? null : entry.value();
    }

    /** Where the key was written, or the section's location if it was not. */
    Location keyLocation(String key) {
        YamlEntry entry = map.entry(key);
        return entry == null ? map.location() : entry.keyLocation();
    }

    void error(Location at, String message) {
        errors.add(at, message);
    }

    ConfigErrors errors() {
        return errors;
    }

    /** An error at the section for a key that must be there. */
    void missing(String key, String expected) {
        errors.add(map.location(), context + " has no '" + key + "' (expected " + expected + ")");
    }

    /** The nested section under the key, or {@code null} if it is absent or not a mapping. */
    Section section(String key, String nestedContext, List<String> keys) {
        YamlNode node = node(key);
        return node == null ? null : of(node, key, nestedContext, errors, keys);
    }

    /** The scalar text under the key, or {@code null} after an error if it is absent and required or not a scalar. */
    String text(String key, String expected) {
        YamlNode node = node(key);
        if (node == null) {
            return null;
        }
        if (node instanceof YamlScalar && !((YamlScalar) node).isNull()) {
            return ((YamlScalar) node).text();
        }
        wrongType(key, expected, node);
        return null;
    }

    /** The string under the key, or the default if absent or wrong. */
    String string(String key, String defaultValue) {
        String text = text(key, "a string");
        return text == null ? defaultValue : text;
    }

    /** The string under the key, which must be there: {@code null} after an error otherwise. */
    String requiredString(String key, String expected) {
        if (!has(key)) {
            missing(key, expected);
            return null;
        }
        return text(key, expected);
    }

    int integer(String key, int min, int max, int defaultValue) {
        return (int) longValue(key, min, max, defaultValue);
    }

    long longValue(String key, long min, long max, long defaultValue) {
        String text = text(key, integerRange(min, max));
        if (text == null) {
            return defaultValue;
        }
        try {
            long value = Long.parseLong(text);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // Reported below with what is expected.
        }
        wrongType(key, integerRange(min, max), node(key));
        return defaultValue;
    }

    /** A decimal number from {@code min} to {@code max} under the key, such as {@code 1.5}. */
    double decimal(String key, double min, double max, double defaultValue) {
        String expected = "a number from " + plain(min) + " to " + plain(max);
        String text = text(key, expected);
        if (text == null) {
            return defaultValue;
        }
        try {
            double value = Double.parseDouble(text);
            if (value >= min && value <= max && isDecimal(text)) {
                return value;
            }
        } catch (NumberFormatException e) {
            // Reported below with what is expected.
        }
        wrongType(key, expected, node(key));
        return defaultValue;
    }

    private static String plain(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    /** Digits with at most one point: what Java would also read as hex, an exponent or {@code NaN} is refused. */
    private static boolean isDecimal(String text) {
        boolean point = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '.' && !point) {
                point = true;
            } else if (c < '0' || c > '9') {
                return false;
            }
        }
        return !text.isEmpty() && !text.equals(".");
    }

    long size(String key, long min, long max, long defaultValue) {
        String text = text(key, SizeText.EXPECTED);
        if (text == null) {
            return defaultValue;
        }
        long value = SizeText.parse(text);
        Location at = node(key).location();
        if (value < 0) {
            errors.add(at, "'" + key + "' must be " + SizeText.EXPECTED + ", got '" + text + "'" + SizeText.hint(text));
        } else if (value < min) {
            errors.add(
                    at,
                    "'" + key + "' must be " + (min == 1 ? "greater than zero" : "at least " + min + " bytes")
                            + ", got '" + text + "'");
        } else if (value > max) {
            errors.add(at, "'" + key + "' must be at most " + max + " bytes, got '" + text + "'");
        } else {
            return value;
        }
        return defaultValue;
    }

    /** A duration of zero or more under the key. */
    Duration duration(String key, Duration defaultValue) {
        return duration(key, false, defaultValue);
    }

    /** A duration greater than zero under the key. */
    Duration positiveDuration(String key, Duration defaultValue) {
        return duration(key, true, defaultValue);
    }

    private Duration duration(String key, boolean positive, Duration defaultValue) {
        String expected =
                positive ? "a duration greater than zero such as 250ms, 10s, 2m or 1h" : DurationText.EXPECTED;
        String text = text(key, expected);
        if (text == null) {
            return defaultValue;
        }
        Duration value = DurationText.parse(text);
        if (value == null || (positive && value.isZero())) {
            wrongType(key, expected, node(key));
            return defaultValue;
        }
        return value;
    }

    boolean bool(String key, boolean defaultValue) {
        String text = text(key, "true or false");
        if (text == null) {
            return defaultValue;
        }
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
        }
        wrongType(key, "true or false", node(key));
        return defaultValue;
    }

    /** Whether the value under the key is the word {@code off} (or {@code false}), turning a feature off. */
    boolean isOff(String key) {
        YamlNode node = node(key);
        if (node instanceof YamlScalar && !((YamlScalar) node).isNull()) {
            String text = ((YamlScalar) node).text();
            return text.equalsIgnoreCase("off") || text.equalsIgnoreCase("false");
        }
        return false;
    }

    /** The list under the key, or {@code null} if absent or after an error if it is not a list. */
    YamlList list(String key, String expected) {
        YamlNode node = node(key);
        if (node == null) {
            return null;
        }
        if (node instanceof YamlList) {
            return (YamlList) node;
        }
        wrongType(key, expected, node);
        return null;
    }

    /** The scalars of the list under the key, with an error for each item that is not a scalar. */
    List<YamlScalar> scalars(String key, String expected) {
        YamlList list = list(key, "a list of " + expected);
        if (list == null) {
            return List.of();
        }
        List<YamlScalar> values = new ArrayList<>(list.items().size());
        for (YamlNode item : list.items()) {
            if (item instanceof YamlScalar && !((YamlScalar) item).isNull()) {
                values.add((YamlScalar) item);
            } else {
                errors.add(
                        item.location(),
                        "each entry of '" + key + "' must be " + expected + ", got " + item.describe());
            }
        }
        return values;
    }

    /** The strings of the list under the key, with an error for each item that is not a scalar. */
    List<String> strings(String key, String expected) {
        List<YamlScalar> scalars = scalars(key, expected);
        List<String> values = new ArrayList<>(scalars.size());
        for (YamlScalar scalar : scalars) {
            values.add(scalar.text());
        }
        return values;
    }

    /** The mapping of strings under the key, in order, with an error for each value that is not a scalar. */
    Map<String, String> stringMap(String key, String expected) {
        YamlNode node = node(key);
        if (node == null) {
            return Map.of();
        }
        if (!(node instanceof YamlMap)) {
            wrongType(key, "a mapping of " + expected, node);
            return Map.of();
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (YamlEntry entry : ((YamlMap) node).entries()) {
            YamlNode value = entry.value();
            if (value instanceof YamlScalar && !((YamlScalar) value).isNull()) {
                values.put(entry.key(), ((YamlScalar) value).text());
            } else {
                errors.add(
                        value.location(),
                        "'" + entry.key() + "' in '" + key + "' must be " + expected + ", got " + value.describe());
            }
        }
        return Collections.unmodifiableMap(values);
    }

    /** An error that the value under the key is not what is expected. */
    void wrongType(String key, String expected, YamlNode found) {
        errors.add(found.location(), "'" + key + "' must be " + expected + ", got " + found.describe());
    }

    /** An error that the value under the key is not valid, with a sentence about why. */
    void invalid(String key, String sentence) {
        YamlNode node = node(key);
        errors.add(node == null ? keyLocation(key) : node.location(), sentence);
    }

    /**
     * The options {@code build} makes from settings read since the error count was {@code errorsBefore},
     * or {@code fallback}: at once when an error was reported since (the settings are wrong already), or
     * after an error here when the options' builder refuses them, as it has the last word.
     */
    <T> T build(int errorsBefore, Supplier<T> build, T fallback) {
        if (errors.count() > errorsBefore) {
            return fallback;
        }
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            errors.add(location(), context + " is invalid: " + e.getMessage());
            return fallback;
        }
    }

    static String integerRange(long min, long max) {
        if (max == Integer.MAX_VALUE || max == Long.MAX_VALUE) {
            return "an integer of at least " + min;
        }
        return "an integer from " + min + " to " + max;
    }
}
