package io.parry.server.routing.internal;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Trie nodes keyed by ASCII text, looked up by a region of the request path so no string is cut out
 * per request: open addressing with linear probing, at most half full. Each key's hash sits in an
 * {@code int[]} and each key beside its node, so a hit touches few cache lines however many keys
 * there are.
 */
final class RegionIndex {
    static final RegionIndex EMPTY = new RegionIndex(2);

    private final int[] hashes;
    /** Alternating key bytes and node: {@code [key0, node0, key1, node1, ...]}. */
    private final Object[] slots;

    private final int mask;

    private RegionIndex(int capacity) {
        this.hashes = new int[capacity];
        this.slots = new Object[capacity * 2];
        this.mask = capacity - 1;
    }

    /** An index of these keys, which are ASCII (pattern text is checked to be). */
    static RegionIndex of(Map<String, Node> entries) {
        if (entries.isEmpty()) {
            return EMPTY;
        }
        RegionIndex index = new RegionIndex(Integer.highestOneBit(entries.size() * 2 - 1) << 1);
        entries.forEach(index::put);
        return index;
    }

    private void put(String key, Node node) {
        int hash = hash(key, 0, key.length());
        int i = spread(hash) & mask;
        while (slots[2 * i] != null) {
            i = (i + 1) & mask;
        }
        hashes[i] = hash;
        slots[2 * i] = key.getBytes(StandardCharsets.US_ASCII);
        slots[2 * i + 1] = node;
    }

    /** The node for the text {@code path[from, to)}, or {@code null}. */
    Node get(String path, int from, int to) {
        int hash = hash(path, from, to);
        for (int i = spread(hash) & mask; ; i = (i + 1) & mask) {
            byte[] key = (byte[]) slots[2 * i];
            if (key == null) {
                return null;
            }
            if (hashes[i] == hash && regionEquals(key, path, from, to)) {
                return (Node) slots[2 * i + 1];
            }
        }
    }

    static boolean regionEquals(byte[] key, String path, int from, int to) {
        if (key.length != to - from) {
            return false;
        }
        for (int i = 0; i < key.length; i++) {
            if (key[i] != path.charAt(from + i)) {
                return false;
            }
        }
        return true;
    }

    /** The same value as {@link String#hashCode()} of the region. */
    private static int hash(String s, int from, int to) {
        int hash = 0;
        for (int i = from; i < to; i++) {
            hash = 31 * hash + s.charAt(i);
        }
        return hash;
    }

    private static int spread(int hash) {
        return hash ^ (hash >>> 16);
    }
}
