package io.parry.auth.internal;

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A map that never holds more than its capacity: when full, an insert first drops an eighth of the
 * entries, in the map's own order, which is as good as random for keys an attacker cannot choose the
 * hash of. Lock-free reads; meant for caches whose misses are costly but correct.
 */
public final class BoundedCache<K, V> {
    private final ConcurrentHashMap<K, V> entries;
    private final int capacity;

    public BoundedCache(int capacity) {
        this.capacity = capacity;
        this.entries = new ConcurrentHashMap<>(Math.min(capacity, 1024));
    }

    public V get(K key) {
        return entries.get(key);
    }

    public void put(K key, V value) {
        if (entries.size() >= capacity) {
            int drop = Math.max(1, capacity / 8);
            Iterator<K> keys = entries.keySet().iterator();
            while (drop-- > 0 && keys.hasNext()) {
                keys.next();
                keys.remove();
            }
        }
        entries.put(key, value);
    }

    public void remove(K key) {
        entries.remove(key);
    }

    public void clear() {
        entries.clear();
    }

    public int size() {
        return entries.size();
    }
}
