package io.parry.gateway.internal.upstream;

import io.parry.proxy.ProxyObserver;

/**
 * Told about the upstream groups a {@link UpstreamRegistry} runs, for metrics: the proxy observer each
 * new group reports its attempts to, when a group goes live and when a reload takes it out of the
 * live configuration. {@link #retired} of a group is called before {@link #live} of the group that
 * replaces it under the same name. Called on the thread applying a configuration; must not block.
 */
public interface GroupObserver {
    /** An observer that does nothing. */
    GroupObserver NONE = new GroupObserver() {};

    /** The observer given to the guarded upstream of each group started from now on. */
    default ProxyObserver proxyObserver() {
        return ProxyObserver.NONE;
    }

    /** The group is live: routes of the configuration now serving use it. */
    default void live(UpstreamGroup group) {}

    /**
     * The group left the live configuration; it may still finish requests in flight until it is
     * closed, or it is being closed because the gateway stops.
     */
    default void retired(UpstreamGroup group) {}
}
