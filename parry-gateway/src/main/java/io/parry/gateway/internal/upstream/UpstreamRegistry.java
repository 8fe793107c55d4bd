package io.parry.gateway.internal.upstream;

import static java.util.Objects.requireNonNull;

import io.parry.gateway.internal.config.UpstreamConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The running upstream groups by name, across reloads. A reload {@linkplain #prepare prepares} the
 * groups of the new configuration, keeping each group whose configuration is equal and starting the
 * others, then either {@linkplain #commit commits} them once the new route table is live, retiring
 * the groups it no longer uses, or {@linkplain #abandon abandons} them, closing what it started.
 *
 * <p>A {@link GroupObserver} follows the groups: it observes each group started, and is told when a
 * group goes live and when it leaves the live configuration. Prepare, commit and abandon are called
 * by one reload at a time; {@link #groups()} may be read from any thread.
 */
public final class UpstreamRegistry implements AutoCloseable {
    private final Retirement retirement;
    private final GroupObserver observer;
    private volatile Map<String, UpstreamGroup> groups = Map.of();

    /** A registry that hands the groups it no longer uses to this retirement, with no observer. */
    public UpstreamRegistry(Retirement retirement) {
        this(retirement, GroupObserver.NONE);
    }

    /** A registry that hands the groups it no longer uses to this retirement and tells the observer. */
    public UpstreamRegistry(Retirement retirement, GroupObserver observer) {
        this.retirement = requireNonNull(retirement, "retirement");
        this.observer = requireNonNull(observer, "observer");
    }

    /** The groups of the new configuration, and the problems met starting them. */
    public Change prepare(Map<String, UpstreamConfig> configs) {
        Map<String, UpstreamGroup> next = new LinkedHashMap<>();
        List<UpstreamGroup> started = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        Map<String, UpstreamGroup> current = groups;
        configs.forEach((name, config) -> {
            UpstreamGroup existing = current.get(name);
            if (existing != null && existing.config().equals(config)) {
                next.put(name, existing);
                return;
            }
            try {
                UpstreamGroup group = UpstreamGroup.start(config, observer.proxyObserver());
                started.add(group);
                next.put(name, group);
            } catch (RuntimeException e) {
                errors.add("upstreams." + name + ": " + e.getMessage());
            }
        });
        return new Change(Collections.unmodifiableMap(next), List.copyOf(started), List.copyOf(errors));
    }

    /** Makes the prepared groups current and retires those of the previous configuration it dropped. */
    public void commit(Change change) {
        Map<String, UpstreamGroup> previous = groups;
        groups = change.groups();
        for (UpstreamGroup group : previous.values()) {
            if (change.groups().get(group.name()) != group) {
                observer.retired(group);
                retirement.retire(group);
            }
        }
        change.started().forEach(observer::live);
    }

    /** Closes the groups the change started; the current ones stay. */
    public void abandon(Change change) {
        change.started().forEach(UpstreamGroup::close);
    }

    /** The current groups by name, in declaration order. */
    public Map<String, UpstreamGroup> groups() {
        return groups;
    }

    /** The groups a reload dropped that are still open while their last requests finish. */
    public List<UpstreamGroup> retiring() {
        return retirement.retiring();
    }

    /** Closes every group, current and retired. */
    @Override
    public void close() {
        Map<String, UpstreamGroup> current = groups;
        groups = Map.of();
        current.values().forEach(observer::retired);
        current.values().forEach(UpstreamGroup::close);
        retirement.close();
    }

    /**
     * The groups prepared for a configuration.
     *
     * @param groups every group of the new configuration by name
     * @param started the groups started for it, closed if it is abandoned
     * @param errors why groups could not be started; the change must then be abandoned
     */
    public record Change(Map<String, UpstreamGroup> groups, List<UpstreamGroup> started, List<String> errors) {}
}
