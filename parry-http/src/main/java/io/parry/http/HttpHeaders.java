package io.parry.http;

import static java.util.Objects.requireNonNull;

import io.parry.http.spi.AsciiCase;
import io.parry.http.spi.CheckedFields;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Immutable HTTP header fields: names compare case-insensitively, order and repeated fields are
 * kept, and every name and value is validated (RFC 9110, section 5) when it is added, so a header
 * can never smuggle CR, LF or NUL onto the wire.
 *
 * <pre>{@code
 * HttpHeaders headers = HttpHeaders.of("content-type", "text/plain", "cache-control", "no-store");
 * HttpHeaders more = headers.with("x-request-id", "42");
 * }</pre>
 *
 * <p>Lookups scan linearly: a message has few fields, and a scan of a small array beats hashing.
 */
public final class HttpHeaders {
    private static final String[] NONE = new String[0];
    private static final HttpHeaders EMPTY = new HttpHeaders(NONE, 0);

    static {
        CheckedFields.maker((entries, size) -> size == 0 ? EMPTY : new HttpHeaders(entries, size));
    }

    /** Names and values alternate: {@code [name0, value0, name1, value1, ...]}. */
    private final String[] entries;

    private final int size;

    private HttpHeaders(String[] entries, int size) {
        this.entries = entries;
        this.size = size;
    }

    /** Headers with no fields. */
    public static HttpHeaders empty() {
        return EMPTY;
    }

    /**
     * Headers from alternating names and values.
     *
     * @throws IllegalArgumentException if the count is odd or a name or value is invalid
     */
    public static HttpHeaders of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("namesAndValues: odd count " + namesAndValues.length);
        }
        if (namesAndValues.length == 0) {
            return EMPTY;
        }
        String[] entries = namesAndValues.clone();
        for (int i = 0; i < entries.length; i += 2) {
            validate(entries[i], entries[i + 1]);
        }
        return new HttpHeaders(entries, entries.length / 2);
    }

    private static void validate(String name, String value) {
        requireNonNull(name, "name");
        requireNonNull(value, "value");
        if (!HttpTokens.isToken(name)) {
            throw new IllegalArgumentException("header name: " + name + " (expected: an HTTP token)");
        }
        if (!HttpTokens.isFieldValue(value)) {
            throw new IllegalArgumentException(
                    "header value of " + name + " (expected: no control characters such as CR, LF or NUL)");
        }
    }

    /** A builder for new headers. */
    public static Builder builder() {
        return new Builder(8);
    }

    /**
     * A builder for new headers with room for {@code fields} fields before it grows; when exactly that
     * many are added, {@link Builder#build()} does not copy them.
     */
    public static Builder builder(int fields) {
        if (fields < 0) {
            throw new IllegalArgumentException("fields: " + fields + " (expected: >= 0)");
        }
        return new Builder(fields);
    }

    /** A builder that starts with these headers. */
    public Builder toBuilder() {
        return new Builder(Arrays.copyOf(entries, Math.max(entries.length, 16)), size);
    }

    /** The first value of the named field, or {@code null} when there is none. */
    public String get(String name) {
        requireNonNull(name, "name");
        for (int i = 0; i < size; i++) {
            if (AsciiCase.equalsIgnoreCase(entries[2 * i], name)) {
                return entries[2 * i + 1];
            }
        }
        return null;
    }

    /** Every value of the named field, in order; empty when there is none. */
    public List<String> getAll(String name) {
        requireNonNull(name, "name");
        List<String> values = null;
        for (int i = 0; i < size; i++) {
            if (AsciiCase.equalsIgnoreCase(entries[2 * i], name)) {
                if (values == null) {
                    values = new ArrayList<>(2);
                }
                values.add(entries[2 * i + 1]);
            }
        }
        return values == null ? List.of() : Collections.unmodifiableList(values);
    }

    /** Whether the named field is present. */
    public boolean contains(String name) {
        return get(name) != null;
    }

    /** Whether the named field holds this value, compared case-insensitively, as one of its comma-separated elements. */
    public boolean containsValue(String name, String element) {
        requireNonNull(element, "element");
        for (int i = 0; i < size; i++) {
            if (AsciiCase.equalsIgnoreCase(entries[2 * i], name)
                    && HeaderElements.contains(entries[2 * i + 1], element)) {
                return true;
            }
        }
        return false;
    }

    /** The number of fields, counting repeats. */
    public int size() {
        return size;
    }

    /** Whether there are no fields. */
    public boolean isEmpty() {
        return size == 0;
    }

    /** The name of field {@code index}, in the case it was given. */
    public String name(int index) {
        return entries[2 * checkIndex(index)];
    }

    /** The value of field {@code index}. */
    public String value(int index) {
        return entries[2 * checkIndex(index) + 1];
    }

    /** Calls the action with each name and value, in order. */
    public void forEach(BiConsumer<String, String> action) {
        for (int i = 0; i < size; i++) {
            action.accept(entries[2 * i], entries[2 * i + 1]);
        }
    }

    /** A copy in which the named field has only this value. */
    public HttpHeaders with(String name, String value) {
        return toBuilder().set(name, value).build();
    }

    /** A copy without the named field. */
    public HttpHeaders without(String name) {
        return contains(name) ? toBuilder().remove(name).build() : this;
    }

    /**
     * A copy with only the fields of this name, in order; empty when there is none. The fields are not
     * checked again, as every field of an {@code HttpHeaders} was checked when it was made: a response
     * that echoes a request's field costs no second validation.
     *
     * <pre>{@code
     * HttpHeaders type = request.headers().only("content-type");
     * }</pre>
     */
    public HttpHeaders only(String name) {
        requireNonNull(name, "name");
        int first = -1;
        int count = 0;
        for (int i = 0; i < size; i++) {
            if (AsciiCase.equalsIgnoreCase(entries[2 * i], name) && count++ == 0) {
                first = i;
            }
        }
        if (count == size) {
            return this;
        }
        if (count == 0) {
            return EMPTY;
        }
        String[] kept = new String[2 * count];
        int next = 0;
        for (int i = first; next < kept.length; i++) {
            if (AsciiCase.equalsIgnoreCase(entries[2 * i], name)) {
                kept[next++] = entries[2 * i];
                kept[next++] = entries[2 * i + 1];
            }
        }
        return new HttpHeaders(kept, count);
    }

    /** A copy changed by the given edits: {@code headers.map(h -> h.set("a", "1").remove("b"))}. */
    public HttpHeaders map(Consumer<Builder> edits) {
        Builder builder = toBuilder();
        edits.accept(builder);
        return builder.build();
    }

    private int checkIndex(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index: " + index + " (expected: 0 to " + (size - 1) + ")");
        }
        return index;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof HttpHeaders)) {
            return false;
        }
        HttpHeaders other = (HttpHeaders) o;
        if (other.size != size) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            if (!AsciiCase.equalsIgnoreCase(entries[2 * i], other.entries[2 * i])
                    || !entries[2 * i + 1].equals(other.entries[2 * i + 1])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int hash = 1;
        for (int i = 0; i < size; i++) {
            hash = 31 * hash + AsciiCase.hashIgnoreCase(entries[2 * i]);
            hash = 31 * hash + entries[2 * i + 1].hashCode();
        }
        return hash;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < size; i++) {
            if (i > 0) {
                text.append(", ");
            }
            text.append(entries[2 * i]).append(": ").append(entries[2 * i + 1]);
        }
        return text.append(']').toString();
    }

    /**
     * Collects header fields; not thread-safe. Each name and value is validated as it is added, but for
     * fields taken from other headers ({@link #addFrom}), which were when those were made.
     */
    public static final class Builder {
        private String[] entries;
        private int size;
        /** Whether the last {@link #build()} took {@code entries} as they were, so the next change copies them. */
        private boolean built;

        private Builder(int capacity) {
            this(new String[Math.max(2, capacity * 2)], 0);
        }

        private Builder(String[] entries, int size) {
            this.entries = entries;
            this.size = size;
        }

        /**
         * Adds a field, keeping any existing field of the same name.
         *
         * @throws IllegalArgumentException if the name is not a token or the value holds CR, LF, NUL or
         *     another control character
         */
        public Builder add(String name, String value) {
            validate(name, value);
            return append(name, value);
        }

        /**
         * Adds the field at {@code index} of {@code headers}, keeping any existing field of the same name,
         * without checking it again: every field of an {@code HttpHeaders} was checked when it was made.
         * For a proxy passing received fields on, which would otherwise check each one twice.
         *
         * @throws IndexOutOfBoundsException if {@code index} is not below {@code headers.size()}
         */
        public Builder addFrom(HttpHeaders headers, int index) {
            Objects.checkIndex(index, headers.size);
            return append(headers.entries[2 * index], headers.entries[2 * index + 1]);
        }

        /** Replaces every field of this name with one field holding the value. */
        public Builder set(String name, String value) {
            return remove(name).add(name, value);
        }

        /** Removes every field of this name. */
        public Builder remove(String name) {
            requireNonNull(name, "name");
            if (built) {
                entries = entries.clone();
                built = false;
            }
            int kept = 0;
            for (int i = 0; i < size; i++) {
                if (!AsciiCase.equalsIgnoreCase(entries[2 * i], name)) {
                    entries[2 * kept] = entries[2 * i];
                    entries[2 * kept + 1] = entries[2 * i + 1];
                    kept++;
                }
            }
            Arrays.fill(entries, 2 * kept, 2 * size, null);
            size = kept;
            return this;
        }

        /** Whether a field of this name has been added. */
        public boolean contains(String name) {
            for (int i = 0; i < size; i++) {
                if (AsciiCase.equalsIgnoreCase(entries[2 * i], name)) {
                    return true;
                }
            }
            return false;
        }

        /** The headers collected so far. */
        public HttpHeaders build() {
            if (size == 0) {
                return EMPTY;
            }
            if (2 * size == entries.length) {
                built = true;
                return new HttpHeaders(entries, size);
            }
            return new HttpHeaders(Arrays.copyOf(entries, 2 * size), size);
        }

        private Builder append(String name, String value) {
            if (2 * size + 2 > entries.length) {
                entries = Arrays.copyOf(entries, entries.length * 2);
                built = false;
            }
            entries[2 * size] = name;
            entries[2 * size + 1] = value;
            size++;
            return this;
        }
    }
}
