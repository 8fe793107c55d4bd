package io.parry.client.upstream.internal;

import io.parry.client.ClientSender;
import io.parry.client.Endpoint;
import io.parry.client.upstream.HealthCheck;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one group's active health checks on a scheduler: every interval, a check for each endpoint
 * whose previous check has finished. Never blocks the scheduler's thread.
 */
public final class HealthChecker implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger("io.parry.client.upstream");
    private static final long MAX_BODY_BYTES = 64 * 1024;

    private final String upstream;
    private final HealthCheck check;
    private final EndpointState[] states;
    private final Runnable onUnhealthy;
    private final ClientSender sender;
    private final ScheduledExecutorService scheduler;
    private final HttpRequest request;
    private volatile boolean closed;
    private volatile ScheduledFuture<?> task;

    /** A checker for the group; {@code onUnhealthy} runs each time an endpoint starts failing its check. */
    public HealthChecker(
            String upstream,
            HealthCheck check,
            EndpointState[] states,
            Runnable onUnhealthy,
            ClientSender sender,
            ScheduledExecutorService scheduler) {
        this.upstream = upstream;
        this.check = check;
        this.states = states;
        this.onUnhealthy = onUnhealthy;
        this.sender = sender;
        this.scheduler = scheduler;
        this.request = HttpRequest.builder(HttpMethod.GET, check.path())
                .header("user-agent", "parry-health-check")
                .build();
    }

    /** Schedules the checks, the first round at once. */
    public void start() {
        task = scheduler.scheduleWithFixedDelay(
                this::checkAll, 0, TimeUnit.NANOSECONDS.convert(check.interval()), TimeUnit.NANOSECONDS);
    }

    /** Cancels the scheduled checks; a check in flight still completes, unlogged. */
    @Override
    public void close() {
        closed = true;
        ScheduledFuture<?> scheduled = task;
        if (scheduled != null) {
            scheduled.cancel(false);
        }
    }

    private void checkAll() {
        for (EndpointState state : states) {
            if (closed) {
                return;
            }
            if (state.tryStartCheck()) {
                try {
                    check(state);
                } catch (RuntimeException e) {
                    // An exception escaping this task would silently end every later round.
                    finish(state, Outcome.failed(describe(e)));
                }
            }
        }
    }

    private void check(EndpointState state) {
        CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        ScheduledFuture<?> timer = scheduler.schedule(
                () -> outcome.complete(Outcome.failed("no response within " + check.timeout())),
                TimeUnit.NANOSECONDS.convert(check.timeout()),
                TimeUnit.NANOSECONDS);
        outcome.thenAccept(result -> {
            timer.cancel(false);
            finish(state, result);
        });
        send(state.endpoint()).whenComplete((response, error) -> {
            if (error != null) {
                outcome.complete(Outcome.failed(describe(error)));
                return;
            }
            int code = response.status().code();
            Outcome result = code >= 200 && code < 400 ? Outcome.PASSED : Outcome.failed("status " + code);
            // Read to the end, even after a timeout, so the connection can go back to its pool.
            response.body().aggregate(MAX_BODY_BYTES).whenComplete((body, bodyError) -> outcome.complete(result));
        });
    }

    private CompletionStage<HttpResponse> send(Endpoint endpoint) {
        try {
            return sender.send(endpoint, request);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private void finish(EndpointState state, Outcome outcome) {
        boolean changed = state.finishCheck(outcome.passed(), check.healthyThreshold(), check.unhealthyThreshold());
        if (!changed || closed) {
            return;
        }
        if (outcome.passed()) {
            log.info(
                    "upstream {}: {} is healthy again: health check passed (passes in a row: {})",
                    upstream,
                    state.endpoint(),
                    check.healthyThreshold());
        } else {
            log.info(
                    "upstream {}: {} is unhealthy: health check failed (failures in a row: {}, last: {})",
                    upstream,
                    state.endpoint(),
                    check.unhealthyThreshold(),
                    outcome.detail());
            onUnhealthy.run();
        }
    }

    private static String describe(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause.getMessage() == null
                ? cause.getClass().getSimpleName()
                : cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }

    /** A check's result, and why it failed. */
    private record Outcome(boolean passed, String detail) {
        static final Outcome PASSED = new Outcome(true, "passed");

        static Outcome failed(String detail) {
            return new Outcome(false, detail);
        }
    }
}
