package io.parry.it;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.spi.MDCAdapter;

/**
 * An SLF4J MDC in a plain {@link ThreadLocal}, as Logback keeps it. slf4j-simple's MDC does nothing,
 * and SLF4J's {@code BasicMDCAdapter} is inherited by threads started while it is set, which would
 * let a worker thread show a request's ids that Parry never put there.
 */
final class ThreadLocalMdc implements MDCAdapter {
    private final ThreadLocal<Map<String, String>> values = ThreadLocal.withInitial(HashMap::new);
    private final ThreadLocal<Map<String, Deque<String>>> stacks = ThreadLocal.withInitial(HashMap::new);

    @Override
    public void put(String key, String value) {
        values.get().put(key, value);
    }

    @Override
    public String get(String key) {
        return values.get().get(key);
    }

    @Override
    public void remove(String key) {
        values.get().remove(key);
    }

    @Override
    public void clear() {
        values.get().clear();
    }

    @Override
    public Map<String, String> getCopyOfContextMap() {
        return new HashMap<>(values.get());
    }

    @Override
    public void setContextMap(Map<String, String> contextMap) {
        values.set(new HashMap<>(contextMap));
    }

    @Override
    public void pushByKey(String key, String value) {
        stacks.get().computeIfAbsent(key, k -> new ArrayDeque<>()).push(value);
    }

    @Override
    public String popByKey(String key) {
        Deque<String> stack = stacks.get().get(key);
        return stack == null ? null : stack.poll();
    }

    @Override
    public Deque<String> getCopyOfDequeByKey(String key) {
        Deque<String> stack = stacks.get().get(key);
        return stack == null ? null : new ArrayDeque<>(stack);
    }

    @Override
    public void clearDequeByKey(String key) {
        stacks.get().remove(key);
    }
}
