package io.parry.server.routing.internal;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/** An immutable map over two small arrays: a route has few parameters, so a scan beats hashing. */
final class PathParams extends AbstractMap<String, String> {
    private final String[] names;
    private final String[] values;

    PathParams(String[] names, String[] values) {
        this.names = names;
        this.values = values;
    }

    @Override
    public String get(Object key) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(key)) {
                return values[i];
            }
        }
        return null;
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null;
    }

    @Override
    public int size() {
        return names.length;
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, String>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < names.length;
                    }

                    @Override
                    public Entry<String, String> next() {
                        if (next >= names.length) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new SimpleImmutableEntry<>(names[i], values[i]);
                    }
                };
            }

            @Override
            public int size() {
                return names.length;
            }
        };
    }

    /** The outer parameters followed by these; a name given in both keeps this value. */
    static Map<String, String> concat(Map<String, String> outer, String[] names, String[] values) {
        if (outer.isEmpty()) {
            return new PathParams(names, values);
        }
        List<String> allNames = new ArrayList<>(outer.size() + names.length);
        List<String> allValues = new ArrayList<>(outer.size() + names.length);
        outer.forEach((name, value) -> {
            if (!Arrays.asList(names).contains(name)) {
                allNames.add(name);
                allValues.add(value);
            }
        });
        allNames.addAll(Arrays.asList(names));
        allValues.addAll(Arrays.asList(values));
        return new PathParams(allNames.toArray(new String[0]), allValues.toArray(new String[0]));
    }
}
