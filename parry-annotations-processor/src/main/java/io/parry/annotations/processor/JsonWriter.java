package io.parry.annotations.processor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Writes maps, lists, strings, numbers and booleans as compact JSON, keeping map order. */
final class JsonWriter {
    private JsonWriter() {}

    /** A map of these keys and values, in this order. */
    static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.append(first ? "" : ",")
                        .append(JavaText.literal(entry.getKey().toString()))
                        .append(':');
                write(entry.getValue(), out);
                first = false;
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append(i == 0 ? "" : ",");
                write(list.get(i), out);
            }
            out.append(']');
        } else if (value instanceof String text) {
            out.append(JavaText.literal(text));
        } else {
            out.append(value);
        }
    }
}
