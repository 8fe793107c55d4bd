package io.parry.proxy;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpHeaders;
import java.util.ArrayList;
import java.util.Arrays;
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
 * <p>Immutable and thread-safe; equal to other rules with the same rules in the same order.
 */
public final class HeaderRules {
    private static final HeaderRules NONE = new HeaderRules(new Rule[0]);

    /** What a rule does with the fields of its name. */
    public enum Action {
        /** Adds a field, keeping those of the same name. */
        ADD,
        /** Replaces every field of the name with one. */
        SET,
        /** Removes every field of the name. */
        REMOVE
    }

    /**
     * One rule.
     *
     * @param action what it does
     * @param name the field name, as given
     * @param value the value it adds or sets; {@code null} for {@link Action#REMOVE}
     */
    public record Rule(Action action, String name, String value) {}

    private final Rule[] rules;

    private HeaderRules(Rule[] rules) {
        this.rules = rules;
    }

    /** Rules that change nothing. */
    public static HeaderRules none() {
        return NONE;
    }

    /** A builder with no rules. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting with these rules, to which more can be added. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.rules.addAll(Arrays.asList(rules));
        return builder;
    }

    /** The headers with every rule applied in order; the same instance when there are no rules. */
    public HttpHeaders apply(HttpHeaders headers) {
        requireNonNull(headers, "headers");
        if (rules.length == 0) {
            return headers;
        }
        HttpHeaders.Builder builder = headers.toBuilder();
        for (Rule rule : rules) {
            switch (rule.action()) {
                case ADD:
                    builder.add(rule.name(), rule.value());
                    break;
                case SET:
                    builder.set(rule.name(), rule.value());
                    break;
                default:
                    builder.remove(rule.name());
                    break;
            }
        }
        return builder.build();
    }

    /** The rules in the order they apply. */
    public List<Rule> rules() {
        return List.of(rules);
    }

    /** Whether there are no rules. */
    public boolean isEmpty() {
        return rules.length == 0;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HeaderRules that && Arrays.equals(rules, that.rules);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(rules);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("HeaderRules[");
        for (int i = 0; i < rules.length; i++) {
            Rule rule = rules[i];
            text.append(i == 0 ? "" : ", ").append(rule.action().name().toLowerCase(Locale.ROOT));
            text.append(' ').append(rule.name());
            if (rule.action() != Action.REMOVE) {
                text.append(": ").append(rule.value());
            }
        }
        return text.append(']').toString();
    }

    /** Collects rules in order; not thread-safe. */
    public static final class Builder {
        private final List<Rule> rules = new ArrayList<>();

        private Builder() {}

        /** Adds a field, keeping any field of the same name already there. */
        public Builder add(String name, String value) {
            return rule(Action.ADD, requireNonNull(name, "name"), requireNonNull(value, "value"));
        }

        /** Replaces every field of this name with one holding the value, or adds it if there is none. */
        public Builder set(String name, String value) {
            return rule(Action.SET, requireNonNull(name, "name"), requireNonNull(value, "value"));
        }

        /** Removes every field of this name. */
        public Builder remove(String name) {
            return rule(Action.REMOVE, requireNonNull(name, "name"), null);
        }

        private Builder rule(Action action, String name, String value) {
            rules.add(new Rule(action, name, value));
            return this;
        }

        /**
         * The rules.
         *
         * @throws IllegalArgumentException if a name is not an HTTP token or a value holds CR, LF, NUL
         *     or another control character
         */
        public HeaderRules build() {
            if (rules.isEmpty()) {
                return NONE;
            }
            // Validating once here means apply() can never fail on a rule.
            HttpHeaders.Builder check = HttpHeaders.builder();
            for (Rule rule : rules) {
                check.add(rule.name(), rule.value() == null ? "" : rule.value());
            }
            return new HeaderRules(rules.toArray(new Rule[0]));
        }
    }
}
