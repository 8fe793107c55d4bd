package io.parry.server;

import static java.util.Objects.requireNonNull;

import io.parry.server.internal.OverloadState;
import io.parry.server.internal.SheddingFilter;
import java.util.Optional;

/**
 * Sheds new requests early, with 503 and {@code Retry-After}, while the process is overloaded:
 * event loops running late, too many requests in flight, the heap full after garbage collection, or
 * too much direct memory held ({@link OverloadOptions}). Off until options turn a signal on.
 *
 * <pre>{@code
 * Overload overload = Overload.of(OverloadOptions.builder()
 *         .eventLoopLag(Duration.ofMillis(200)).maxInFlight(10_000).build());
 * Router router = Router.builder()
 *         .get("/report", report, route -> route.filter(overload.filter(Priority.SHEDDABLE)))
 *         .build();
 * Server.builder().overload(overload).handler(router.with(overload.filter(Priority.NORMAL)))...
 * }</pre>
 *
 * <p>A {@link #filter(Priority) filter} decides per request with two or three volatile reads and no
 * lock or allocation, before the handler runs, so a shed request's body is never read; the answer
 * is made once per options value. Lag, heap and
 * direct memory are sampled on the event loops of the servers built with {@link
 * Server.Builder#overload(Overload)} (one task per loop per {@link OverloadOptions#sampleInterval()});
 * without such a server only {@link OverloadOptions#maxInFlight()} applies. Leave health checks and
 * admin endpoints outside the filter (or give them {@link Priority#EXEMPT}).
 *
 * <p>Thread-safe. {@link #update} changes the thresholds of a live instance (a configuration reload).
 */
public final class Overload {
    private final OverloadState state;

    private Overload(OverloadOptions options) {
        this.state = new OverloadState(options);
    }

    /** An overload guard with these thresholds. */
    public static Overload of(OverloadOptions options) {
        return new Overload(requireNonNull(options, "options"));
    }

    /** The thresholds in force. */
    public OverloadOptions options() {
        return state.options();
    }

    /** Replaces the thresholds; sampled signals are judged by them from the next sample. */
    public void update(OverloadOptions options) {
        state.update(requireNonNull(options, "options"));
    }

    /**
     * A filter that sheds requests of this priority while overloaded and, while {@link
     * OverloadOptions#maxInFlight()} is on, counts the others in flight until their handler's stage
     * completes (a proxied request until its response head). {@link Priority#EXEMPT} gives a filter that does nothing.
     */
    public Filter filter(Priority priority) {
        requireNonNull(priority, "priority");
        if (priority == Priority.EXEMPT) {
            return (next, ctx, request) -> next.handle(ctx, request);
        }
        return new SheddingFilter(state, priority);
    }

    /** Why a sampled signal sheds this priority now (requests in flight aside), if one does. */
    public Optional<OverloadReason> sheds(Priority priority) {
        return Optional.ofNullable(state.sampledReason(requireNonNull(priority, "priority")));
    }

    /** The requests in the filters' handlers now, counted while {@link OverloadOptions#maxInFlight()} is on. */
    public int inFlight() {
        return state.inFlight();
    }

    /** How many requests were shed for this reason so far. */
    public long shed(OverloadReason reason) {
        return state.shed(requireNonNull(reason, "reason"));
    }

    OverloadState state() {
        return state;
    }
}
