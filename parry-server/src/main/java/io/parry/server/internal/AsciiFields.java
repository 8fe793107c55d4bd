package io.parry.server.internal;

import io.netty.util.AsciiString;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * The {@link AsciiString} form of the header names and values an event loop's HTTP/2 responses
 * repeat (a content type, a cache policy, a fixed response's fields). Netty's HPACK encoder hashes an
 * {@code AsciiString} once and compares it by its array, but a {@code String} char by char for every
 * field of every response; this table lets a repeated field pay that once.
 *
 * <p>Every name and value goes through the table, even one seen once: HPACK keeps the first form it
 * meets of a field in the connection's dynamic table, and an {@code AsciiString} compared with a
 * {@code String} there is slower than either type with its own kind. One table per event loop thread,
 * used only on it: no lock, and nothing per connection. A slot holds the last string that landed in
 * it, so the table stays a fixed size whatever the responses say.
 */
final class AsciiFields {
    private static final int SLOTS = 128;
    private static final FastThreadLocal<AsciiFields> LOOP = new FastThreadLocal<>() {
        @Override
        protected AsciiFields initialValue() {
            return new AsciiFields();
        }
    };

    private final String[] strings = new String[SLOTS];
    private final AsciiString[] ascii = new AsciiString[SLOTS];

    private AsciiFields() {}

    /** The calling thread's table. */
    static AsciiFields ofThread() {
        return LOOP.get();
    }

    /** {@code text} as an {@code AsciiString}: the table's if it has it, otherwise a new one it keeps. */
    AsciiString of(String text) {
        int slot = text.hashCode() & (SLOTS - 1);
        AsciiString known = ascii[slot];
        if (known != null && text.equals(strings[slot])) {
            return known;
        }
        AsciiString converted = new AsciiString(text);
        strings[slot] = text;
        ascii[slot] = converted;
        return converted;
    }
}
