package io.parry.proxy;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpHeaders;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Rules that add, set and remove header fields, applied in the order they were declared, so a
 * {@code remove("x")} after an {@code add("x", ...)} leaves no {@code x}. Names compare
 * case-insensitively, as in {@link HttpHeaders}.
 *
 * <pre>{@code
 * HeaderRules rules = HeaderRules.builder()
 *         .remove("cookie")
 *         .set("x-gateway", "parry")
 *         .add("cache-control", "no-transform")
 *         .build();
 * HttpHeaders upstream = rules.apply(incoming.headers());
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class HeaderRules {
    private static final HeaderRules NONE = new HeaderRules(new Kind[0], new String[0], new String[0]);

    private enum Kind {
        ADD,
        SET,
        REMOVE
    }

    private final Kind[] kinds;
    private final String[] names;
    private final String[] values;

    private HeaderRules(Kind[] kinds, String[] names, String[] values) {
        this.kinds = kinds;
        this.names = names;
        this.values = values;
    }

    /** Rules that change nothing. */
    public static HeaderRules none() {
        return NONE;
    }

    /** A builder with no rules. */
    public static Builder builder() {
        return new Builder();
    }

    /** The headers with every rule applied in order; the same instance when there are no rules. */
    public HttpHeaders apply(HttpHeaders headers) {
        requireNonNull(headers, "headers");
        if (kinds.length == 0) {
            return headers;
        }
        HttpHeaders.Builder builder = headers.toBuilder();
        for (int i = 0; i < kinds.length; i++) {
            switch (kinds[i]) {
                case ADD:
                    builder.add(names[i], values[i]);
                    break;
                case SET:
                    builder.set(names[i], values[i]);
                    break;
                default:
                    builder.remove(names[i]);
                    break;
            }
        }
        return builder.build();
    }

    /** Whether there are no rules. */
    public boolean isEmpty() {
        return kinds.length == 0;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("HeaderRules[");
        for (int i = 0; i < kinds.length; i++) {
            text.append(i == 0 ? "" : ", ").append(kinds[i].name().toLowerCase(Locale.ROOT));
            text.append(' ').append(names[i]);
            if (kinds[i] != Kind.REMOVE) {
                text.append(": ").append(values[i]);
            }
        }
        return text.append(']').toString();
    }

    /** Collects rules in order; not thread-safe. */
    public static final class Builder {
        private final List<Kind> kinds = new ArrayList<>();
        private final List<String> names = new ArrayList<>();
        private final List<String> values = new ArrayList<>();

        private Builder() {}

        /** Adds a field, keeping any field of the same name already there. */
        public Builder add(String name, String value) {
            return rule(Kind.ADD, requireNonNull(name, "name"), requireNonNull(value, "value"));
        }

        /** Replaces every field of this name with one holding the value, or adds it if there is none. */
        public Builder set(String name, String value) {
            return rule(Kind.SET, requireNonNull(name, "name"), requireNonNull(value, "value"));
        }

        /** Removes every field of this name. */
        public Builder remove(String name) {
            return rule(Kind.REMOVE, requireNonNull(name, "name"), null);
        }

        private Builder rule(Kind kind, String name, String value) {
            kinds.add(kind);
            names.add(name);
            values.add(value);
            return this;
        }

        /**
         * The rules.
         *
         * @throws IllegalArgumentException if a name is not an HTTP token or a value holds CR, LF, NUL
         *     or another control character
         */
        public HeaderRules build() {
            if (kinds.isEmpty()) {
                return NONE;
            }
            // Validating once here means apply() can never fail on a rule.
            HttpHeaders.Builder check = HttpHeaders.builder();
            for (int i = 0; i < kinds.size(); i++) {
                check.add(names.get(i), values.get(i) == null ? "" : values.get(i));
            }
            return new HeaderRules(
                    kinds.toArray(new Kind[0]), names.toArray(new String[0]), values.toArray(new String[0]));
        }
    }
}
