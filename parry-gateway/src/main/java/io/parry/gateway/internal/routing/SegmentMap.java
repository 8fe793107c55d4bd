package io.parry.gateway.internal.routing;

import java.util.Map;

/**
 * An immutable map from path segments to values, looked up by a region of the request's path so a
 * lookup allocates nothing: open addressing over {@link String#hashCode()}, computed on the region.
 */
final class SegmentMap<V> {
    private final String[] keys;
    private final Object[] values;
    private final int mask;

    private SegmentMap(Map<String, V> entries) {
        int capacity = Integer.highestOneBit(Math.max(2, entries.size() * 2 - 1)) << 1;
        this.keys = new String[capacity];
        this.values = new Object[capacity];
        this.mask = capacity - 1;
        entries.forEach((key, value) -> {
            int i = spread(key.hashCode()) & mask;
            while (keys[i] != null) {
                i = (i + 1) & mask;
            }
            keys[i] = key;
            values[i] = value;
        });
    }

    /** The map of these entries; {@code null} when there are none, so a leaf costs nothing. */
    static <V> SegmentMap<V> of(Map<String, V> entries) {
        return entries.isEmpty() ? null : new SegmentMap<>(entries);
    }

    /** The value of the segment {@code path[from, to)}, or {@code null}. */
    @SuppressWarnings("unchecked")
    V get(String path, int from, int to) {
        int hash = 0;
        for (int i = from; i < to; i++) {
            hash = 31 * hash + path.charAt(i);
        }
        int length = to - from;
        for (int i = spread(hash) & mask; keys[i] != null; i = (i + 1) & mask) {
            String key = keys[i];
            if (key.length() == length && path.regionMatches(from, key, 0, length)) {
                return (V) values[i];
            }
        }
        return null;
    }

    private static int spread(int hash) {
        return hash ^ (hash >>> 16);
    }
}
