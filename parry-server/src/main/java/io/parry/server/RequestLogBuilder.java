package io.parry.server;

/**
 * Lets code handling a request add facts to its {@link RequestLog}. Obtained with
 * {@link RequestContext#log()}. Call it from the request's own work (its handler, filters and the
 * stages they complete) before the response is complete; facts added after the request ended are
 * lost. Not thread-safe: a request's work runs on one thread at a time.
 */
public interface RequestLogBuilder {

    /**
     * Sets the route pattern that matched, for example {@code /todos/{id}}; the {@link
     * io.parry.server.routing.Router} sets it, and a later call replaces an earlier one.
     *
     * @return this builder
     */
    RequestLogBuilder route(String pattern);

    /**
     * Sets the upstream that answered, for example {@code todo/127.0.0.1:9000}; a later call (a retry
     * elsewhere) replaces an earlier one.
     *
     * @return this builder
     */
    RequestLogBuilder upstream(String upstream);

    /**
     * Adds time spent waiting on an upstream, in nanoseconds: one call per attempt, from sending it to
     * its response head.
     *
     * @return this builder
     */
    RequestLogBuilder addUpstreamNanos(long nanos);

    /**
     * Replaces the raw query the log records (without {@code ?}), for a filter that took a secret out
     * of it, such as an API key; a later call replaces an earlier one. This default, for builders that
     * keep nothing, drops the fact.
     *
     * @return this builder
     */
    default RequestLogBuilder query(String query) {
        return this;
    }

    /**
     * Sets which side ended the exchange when it did not end normally, for example {@link
     * EndedBy#CLIENT} for a request body the client broke; a later call replaces an earlier one. Left
     * unset, the server fills in what it saw itself (a request it refused or a client that left before
     * the response: {@code CLIENT}). This default, for builders that keep nothing, drops the fact.
     *
     * @return this builder
     */
    default RequestLogBuilder endedBy(EndedBy side) {
        return this;
    }
}
