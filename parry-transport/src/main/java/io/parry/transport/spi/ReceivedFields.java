package io.parry.transport.spi;

import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import io.parry.http.spi.AsciiCase;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Date;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map.Entry;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The header fields Netty's decoders read, in arrival order in one flat array. A head holds a handful
 * of fields and each is looked up a few times at most, so a lookup scans and compares names without
 * case: nothing is hashed and no object is made per field, which Netty's {@code DefaultHttpHeaders}
 * does for every field of every message. Names and values are not validated here: Parry's {@code
 * HttpHeaders} validates each field once when it copies them ({@link #toParry}).
 */
public final class ReceivedFields extends HttpHeaders {
    /**
     * Makes the headers of decoded heads and trailers. Most bodies end without trailer fields, and
     * an empty {@code ReceivedFields} is one small object, where Netty's own trailers make a hash
     * table for each body.
     */
    public static final HttpHeadersFactory FACTORY = new HttpHeadersFactory() {
        @Override
        public HttpHeaders newHeaders() {
            return new ReceivedFields();
        }

        @Override
        public HttpHeaders newEmptyHeaders() {
            return new ReceivedFields();
        }
    };

    private static final int INITIAL_FIELDS = 8;
    private static final CharSequence[] NO_ENTRIES = {};
    /** In {@link #framingFields}: a Content-Length field may be here. */
    private static final int CONTENT_LENGTH_PRESENT = 1;
    /**
     * In {@link #framingFields}: a Content-Length field was added while one was here, noted as it is added (so the
     * question needs no scan) and kept when a set replaces them.
     */
    private static final int CONTENT_LENGTH_REPEATED = 1 << 31;
    /** The names whose absence {@link #framingFields} records; a bit each, in this order. */
    private static final AsciiString[] FRAMING_NAMES = {
        HttpHeaderNames.CONTENT_LENGTH,
        HttpHeaderNames.TRANSFER_ENCODING,
        HttpHeaderNames.CONNECTION,
        HttpHeaderNames.UPGRADE,
        HttpHeaderNames.EXPECT
    };

    /** Name, value, name, value...: names as the decoder gave them, values as strings; made on the first add. */
    private CharSequence[] entries = NO_ENTRIES;

    private int size;
    /**
     * Which of the framing fields the decoder and the framing ask about ({@link #FRAMING_NAMES}) may be
     * here: a bit per name, set when a field of that name is added and cleared when they are removed. Most heads have none of them, and
     * each question about an absent one is answered without a scan. One more bit, {@link
     * #CONTENT_LENGTH_REPEATED}, keeps the object as small as it was.
     */
    private int framingFields;

    private ReceivedFields() {}

    /**
     * Parry's validated copy of {@code netty}, whichever kind of headers it is.
     *
     * @throws IllegalArgumentException if a name is not a token or a value holds a control character
     */
    public static io.parry.http.HttpHeaders toParry(HttpHeaders netty) {
        if (netty.isEmpty()) {
            return io.parry.http.HttpHeaders.empty();
        }
        // Sized exactly, so the headers take the builder's array: one copy of the fields, not two.
        io.parry.http.HttpHeaders.Builder fields = io.parry.http.HttpHeaders.builder(netty.size());
        if (netty instanceof ReceivedFields) {
            ReceivedFields received = (ReceivedFields) netty;
            for (int i = 0; i < 2 * received.size; i += 2) {
                fields.add(received.entries[i].toString(), received.entries[i + 1].toString());
            }
        } else {
            Iterator<Entry<CharSequence, CharSequence>> each = netty.iteratorCharSequence();
            while (each.hasNext()) {
                Entry<CharSequence, CharSequence> field = each.next();
                fields.add(field.getKey().toString(), field.getValue().toString());
            }
        }
        return fields.build();
    }

    /**
     * As {@link #toParry(HttpHeaders)}, given the headers made for the message before on the same connection
     * ({@code null} for the first): a client sends much the same header block on every request of a
     * connection. The fields spelt exactly as that message's, from the first on, are taken from {@code last}
     * without a second check (comparing text costs less than checking it, character by character), and when
     * every field is, {@code last} itself is the answer.
     *
     * @throws IllegalArgumentException if a name is not a token or a value holds a control character
     */
    public static io.parry.http.HttpHeaders toParry(HttpHeaders netty, io.parry.http.HttpHeaders last) {
        if (last == null || !(netty instanceof ReceivedFields)) {
            return toParry(netty);
        }
        ReceivedFields received = (ReceivedFields) netty;
        int same = received.samePrefix(last);
        if (same == received.size && same == last.size()) {
            return last;
        }
        if (received.size == 0) {
            return io.parry.http.HttpHeaders.empty();
        }
        io.parry.http.HttpHeaders.Builder fields = io.parry.http.HttpHeaders.builder(received.size);
        for (int i = 0; i < same; i++) {
            fields.addFrom(last, i);
        }
        for (int i = 2 * same; i < 2 * received.size; i += 2) {
            fields.add(received.entries[i].toString(), received.entries[i + 1].toString());
        }
        return fields.build();
    }

    /** How many fields, from the first, are spelt exactly as those of {@code last}. */
    private int samePrefix(io.parry.http.HttpHeaders last) {
        int limit = Math.min(size, last.size());
        int same = 0;
        while (same < limit
                && sameText(last.value(same), entries[2 * same + 1])
                && sameText(last.name(same), entries[2 * same])) {
            same++;
        }
        return same;
    }

    /**
     * Whether {@code received} is spelt exactly as {@code known}. The decoder makes each name an {@code AsciiString},
     * which {@code String.contentEquals} would read a character at a time through its interface; its bytes are
     * compared here directly.
     */
    private static boolean sameText(String known, CharSequence received) {
        if (received instanceof String text) {
            return known.equals(text);
        }
        if (!(received instanceof AsciiString ascii)) {
            return known.contentEquals(received);
        }
        int length = known.length();
        if (ascii.length() != length) {
            return false;
        }
        byte[] bytes = ascii.array();
        int offset = ascii.arrayOffset();
        for (int i = 0; i < length; i++) {
            if (known.charAt(i) != (char) (bytes[offset + i] & 0xff)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A copy of these fields with field {@code index}'s value replaced, as the decoder would have read a head that
     * differs from theirs in that value alone. The value is not validated here, as no received value is.
     */
    public ReceivedFields withValue(int index, String value) {
        Objects.checkIndex(index, size);
        ReceivedFields copy = new ReceivedFields();
        copy.entries = Arrays.copyOf(entries, 2 * size);
        copy.entries[2 * index + 1] = value;
        copy.size = size;
        copy.framingFields = framingFields;
        return copy;
    }

    /**
     * {@code headers} as received fields: the same object when it is one, else a copy. Framing questions
     * asked of these directly are calls to one known class, not through Netty's {@code HttpUtil}, whose
     * call sites see every kind of headers (requests, responses, trailers) and so cannot be inlined.
     */
    public static ReceivedFields of(HttpHeaders headers) {
        if (headers instanceof ReceivedFields) {
            return (ReceivedFields) headers;
        }
        ReceivedFields copy = new ReceivedFields();
        Iterator<Entry<CharSequence, CharSequence>> fields = headers.iteratorCharSequence();
        while (fields.hasNext()) {
            Entry<CharSequence, CharSequence> field = fields.next();
            copy.add(field.getKey(), field.getValue());
        }
        return copy;
    }

    /**
     * The declared {@code Content-Length}, or -1 when there is none.
     *
     * @throws NumberFormatException if the value is not a number (Netty's decoder rejects that first)
     */
    public long contentLength() {
        String value = get(HttpHeaderNames.CONTENT_LENGTH);
        return value == null ? -1 : Long.parseLong(value);
    }

    /**
     * Whether the head had more than one {@code Content-Length} field, even where the decoder has
     * since set one value in their place (Netty's does for HTTP/1.0, keeping the first).
     */
    public boolean hadRepeatedContentLength() {
        return (framingFields & CONTENT_LENGTH_REPEATED) != 0;
    }

    /** Whether {@code Transfer-Encoding} names chunked, as Netty's {@code HttpUtil} decides it. */
    public boolean isChunked() {
        return containsValue(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED, true);
    }

    /** Whether the connection stays open after this message, as Netty's {@code HttpUtil} decides it. */
    public boolean isKeepAlive(HttpVersion version) {
        return !containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE, true)
                && (version.isKeepAliveDefault()
                        || containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE, true));
    }

    @Override
    public String get(String name) {
        return get((CharSequence) name);
    }

    @Override
    public String get(CharSequence name) {
        int index = indexOf(name, 0);
        return index < 0 ? null : entries[index + 1].toString();
    }

    @Override
    public Integer getInt(CharSequence name) {
        String value = get(name);
        try {
            return value == null ? null : Integer.valueOf(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public int getInt(CharSequence name, int defaultValue) {
        Integer value = getInt(name);
        return value == null ? defaultValue : value;
    }

    @Override
    public Short getShort(CharSequence name) {
        String value = get(name);
        try {
            return value == null ? null : Short.valueOf(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public short getShort(CharSequence name, short defaultValue) {
        Short value = getShort(name);
        return value == null ? defaultValue : value;
    }

    @Override
    public Long getTimeMillis(CharSequence name) {
        String value = get(name);
        Date date = value == null ? null : DateFormatter.parseHttpDate(value);
        return date == null ? null : date.getTime();
    }

    @Override
    public long getTimeMillis(CharSequence name, long defaultValue) {
        Long value = getTimeMillis(name);
        return value == null ? defaultValue : value;
    }

    @Override
    public List<String> getAll(String name) {
        return getAll((CharSequence) name);
    }

    /**
     * The values, unmodifiable. Netty's decoder asks for every Content-Length of each head and only reads the answer;
     * a field that is not repeated, as nearly every one is, takes one small list, not a growable one.
     */
    @Override
    public List<String> getAll(CharSequence name) {
        int index = indexOf(name, 0);
        if (index < 0) {
            return Collections.emptyList();
        }
        int next = indexOf(name, index + 2);
        if (next < 0) {
            return Collections.singletonList(entries[index + 1].toString());
        }
        List<String> values = new ArrayList<>(2);
        values.add(entries[index + 1].toString());
        for (index = next; index >= 0; index = indexOf(name, index + 2)) {
            values.add(entries[index + 1].toString());
        }
        return Collections.unmodifiableList(values);
    }

    @Override
    public List<Entry<String, String>> entries() {
        List<Entry<String, String>> all = new ArrayList<>(size);
        iterator().forEachRemaining(all::add);
        return all;
    }

    @Override
    public boolean contains(String name) {
        return indexOf(name, 0) >= 0;
    }

    @Override
    public boolean contains(CharSequence name) {
        return indexOf(name, 0) >= 0;
    }

    @Override
    public boolean contains(CharSequence name, CharSequence value, boolean ignoreCase) {
        for (int index = indexOf(name, 0); index >= 0; index = indexOf(name, index + 2)) {
            CharSequence candidate = entries[index + 1];
            if (ignoreCase
                    ? AsciiString.contentEqualsIgnoreCase(candidate, value)
                    : AsciiString.contentEquals(candidate, value)) {
                return true;
            }
        }
        return false;
    }

    /** Netty's meaning (each field's comma-separated elements, trimmed), without a list per call. */
    @Override
    public boolean containsValue(CharSequence name, CharSequence value, boolean ignoreCase) {
        for (int index = indexOf(name, 0); index >= 0; index = indexOf(name, index + 2)) {
            if (hasElement(entries[index + 1], value, ignoreCase)) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasElement(CharSequence list, CharSequence value, boolean ignoreCase) {
        int start = 0;
        while (start <= list.length()) {
            int comma = AsciiString.indexOf(list, ',', start);
            int end = comma < 0 ? list.length() : comma;
            CharSequence element = AsciiString.trim(list.subSequence(start, end));
            if (ignoreCase
                    ? AsciiString.contentEqualsIgnoreCase(element, value)
                    : AsciiString.contentEquals(element, value)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    @Override
    public Iterator<Entry<String, String>> iterator() {
        return new Fields<>() {
            @Override
            Entry<String, String> entry(CharSequence name, CharSequence value) {
                return new SimpleImmutableEntry<>(name.toString(), value.toString());
            }
        };
    }

    @Override
    public Iterator<Entry<CharSequence, CharSequence>> iteratorCharSequence() {
        return new Fields<>() {
            @Override
            Entry<CharSequence, CharSequence> entry(CharSequence name, CharSequence value) {
                return new SimpleImmutableEntry<>(name, value);
            }
        };
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Set<String> names() {
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < 2 * size; i += 2) {
            if (indexOf(entries[i], 0) == i) {
                names.add(entries[i].toString());
            }
        }
        return names;
    }

    @Override
    public HttpHeaders add(String name, Object value) {
        return add((CharSequence) name, value);
    }

    @Override
    public HttpHeaders add(CharSequence name, Object value) {
        if (2 * size == entries.length) {
            entries = Arrays.copyOf(entries, Math.max(2 * INITIAL_FIELDS, 2 * entries.length));
        }
        entries[2 * size] = name;
        entries[2 * size + 1] = text(value);
        size++;
        int bit = framingBit(name);
        if ((framingFields & bit & CONTENT_LENGTH_PRESENT) != 0) {
            framingFields |= CONTENT_LENGTH_REPEATED;
        }
        framingFields |= bit;
        return this;
    }

    @Override
    public HttpHeaders add(String name, Iterable<?> values) {
        return add((CharSequence) name, values);
    }

    @Override
    public HttpHeaders add(CharSequence name, Iterable<?> values) {
        for (Object value : values) {
            add(name, value);
        }
        return this;
    }

    @Override
    public HttpHeaders addInt(CharSequence name, int value) {
        return add(name, Integer.toString(value));
    }

    @Override
    public HttpHeaders addShort(CharSequence name, short value) {
        return add(name, Short.toString(value));
    }

    @Override
    public HttpHeaders set(String name, Object value) {
        return set((CharSequence) name, value);
    }

    @Override
    public HttpHeaders set(CharSequence name, Object value) {
        return remove(name).add(name, value);
    }

    @Override
    public HttpHeaders set(String name, Iterable<?> values) {
        return set((CharSequence) name, values);
    }

    @Override
    public HttpHeaders set(CharSequence name, Iterable<?> values) {
        return remove(name).add(name, values);
    }

    @Override
    public HttpHeaders setInt(CharSequence name, int value) {
        return set(name, Integer.toString(value));
    }

    @Override
    public HttpHeaders setShort(CharSequence name, short value) {
        return set(name, Short.toString(value));
    }

    @Override
    public HttpHeaders remove(String name) {
        return remove((CharSequence) name);
    }

    @Override
    public HttpHeaders remove(CharSequence name) {
        int kept = 0;
        int length = name.length();
        for (int i = 0; i < 2 * size; i += 2) {
            if (entries[i].length() != length || !sameName(entries[i], name, length)) {
                entries[kept] = entries[i];
                entries[kept + 1] = entries[i + 1];
                kept += 2;
            }
        }
        Arrays.fill(entries, kept, 2 * size, null);
        size = kept / 2;
        framingFields &= ~framingBit(name);
        return this;
    }

    @Override
    public HttpHeaders clear() {
        Arrays.fill(entries, 0, 2 * size, null);
        size = 0;
        framingFields = 0;
        return this;
    }

    /** The index of the first field named {@code name} at or after {@code from}, or -1. */
    private int indexOf(CharSequence name, int from) {
        int asked = askedBit(name);
        if (asked != 0 && (framingFields & asked) == 0) {
            return -1;
        }
        int length = name.length();
        for (int i = from; i < 2 * size; i += 2) {
            if (entries[i].length() == length && sameName(entries[i], name, length)) {
                return i;
            }
        }
        return -1;
    }

    /** The bit of a framing name asked for as Netty's constant (by identity, so no compare), or 0. */
    private static int askedBit(CharSequence name) {
        for (int i = 0; i < FRAMING_NAMES.length; i++) {
            if (FRAMING_NAMES[i] == name) {
                return 1 << i;
            }
        }
        return 0;
    }

    /** The bit of a framing name, however it is spelt, or 0. */
    private static int framingBit(CharSequence name) {
        int length = name.length();
        for (int i = 0; i < FRAMING_NAMES.length; i++) {
            AsciiString known = FRAMING_NAMES[i];
            if (known.length() == length && sameName(known, name, length)) {
                return 1 << i;
            }
        }
        return 0;
    }

    /** Whether two names of {@code length} characters are equal ignoring ASCII case. */
    private static boolean sameName(CharSequence a, CharSequence b, int length) {
        for (int i = 0; i < length; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y && AsciiCase.toLower(x) != AsciiCase.toLower(y)) {
                return false;
            }
        }
        return true;
    }

    private static String text(Object value) {
        if (value instanceof Date) {
            return DateFormatter.format((Date) value);
        }
        return value.toString();
    }

    /** Walks the fields in order. */
    private abstract class Fields<T> implements Iterator<T> {
        private int next;

        @Override
        public boolean hasNext() {
            return next < 2 * size;
        }

        @Override
        public T next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            T field = entry(entries[next], entries[next + 1]);
            next += 2;
            return field;
        }

        abstract T entry(CharSequence name, CharSequence value);
    }
}
