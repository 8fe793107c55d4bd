package io.parry.server.internal;

import io.parry.server.RequestLogBuilder;

/** The log builder of a request nobody listens to, and of contexts outside a server: drops every fact. */
public final class NoRequestLog implements RequestLogBuilder {
    /** The one instance; code that would compute a fact may compare with it and skip the work. */
    public static final NoRequestLog INSTANCE = new NoRequestLog();

    private NoRequestLog() {}

    @Override
    public RequestLogBuilder route(String pattern) {
        return this;
    }

    @Override
    public RequestLogBuilder upstream(String upstream) {
        return this;
    }

    @Override
    public RequestLogBuilder addUpstreamNanos(long nanos) {
        return this;
    }
}
