package io.parry.proxy;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.parry.client.Endpoint;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An endpoint's circuit breaker, whose state changes are told to the group's {@link ProxyObserver}.
 *
 * <p>The changes are seen by reading the state after each call that can move it, not through
 * Resilience4j's event consumers: with any consumer registered, Resilience4j builds an event with a
 * {@code ZonedDateTime.now()} for every recorded success, a cost paid by every proxied request to
 * tell about a handful of transitions. As the breaker moves only inside these calls (its automatic
 * move to half-open is off), each change is seen by the call that made it; when two event loops move
 * it at the same instant, the observer hears one change from the state it last heard of to the
 * newest, so the transitions it counts always chain. Safe for use by any thread.
 */
final class EndpointBreaker {
    private final CircuitBreaker breaker;
    private final Endpoint endpoint;
    private final String upstream;
    /** The observer, or {@code null} when nobody listens and no state is read. */
    private final ProxyObserver observer;
    /** The state the observer last heard of. */
    private final AtomicReference<CircuitBreaker.State> told;

    EndpointBreaker(CircuitBreaker breaker, Endpoint endpoint, String upstream, ProxyObserver observer) {
        this.breaker = breaker;
        this.endpoint = endpoint;
        this.upstream = upstream;
        this.observer = observer == ProxyObserver.NONE ? null : observer;
        this.told = new AtomicReference<>(breaker.getState());
    }

    /** The Resilience4j breaker. */
    CircuitBreaker breaker() {
        return breaker;
    }

    /** Takes a permission to call the endpoint; an open breaker whose wait ended turns half-open here. */
    boolean tryAcquirePermission() {
        boolean permitted = breaker.tryAcquirePermission();
        tellChange();
        return permitted;
    }

    /** Gives a permission back without an outcome. */
    void releasePermission() {
        breaker.releasePermission();
    }

    /** Records a success, which may close a half-open breaker. */
    void onSuccess(long elapsedNanos) {
        breaker.onSuccess(elapsedNanos, TimeUnit.NANOSECONDS);
        tellChange();
    }

    /** Records a failure, which may open the breaker. */
    void onError(long elapsedNanos, Throwable failure) {
        breaker.onError(elapsedNanos, TimeUnit.NANOSECONDS, failure);
        tellChange();
    }

    private void tellChange() {
        if (observer == null) {
            return;
        }
        CircuitBreaker.State now = breaker.getState();
        CircuitBreaker.State before = told.get();
        if (now != before && told.compareAndSet(before, now)) {
            observer.breakerTransition(upstream, endpoint, GuardedUpstream.state(before), GuardedUpstream.state(now));
        }
    }
}
