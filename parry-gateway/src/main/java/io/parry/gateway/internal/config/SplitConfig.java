package io.parry.gateway.internal.config;

import java.util.List;

/**
 * A proxy route's weighted split across upstream groups (YAML {@code proxy.split}), such as a canary
 * release.
 *
 * @param targets the groups and their weights, in the file's order; the weights add up to 1 or more
 * @param stickyHeader the header whose value keeps a user on one side, or {@code null}
 * @param stickyCookie the cookie whose value keeps a user on one side, or {@code null}
 */
public record SplitConfig(List<Target> targets, String stickyHeader, String stickyCookie) {

    /** Copies the list. */
    public SplitConfig {
        targets = List.copyOf(targets);
    }

    /**
     * One side of a split.
     *
     * @param upstream the name of an upstream group defined in the same file
     * @param weight its share of the requests, from 0 (none) to 10000
     */
    public record Target(String upstream, int weight) {}
}
