package io.parry.micrometer.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.parry.http.HttpMethod;
import io.parry.server.RequestLog;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The server's request timers, one per route pattern, method and status class. Recording a request
 * is a map look-up by the route's string (whose hash the string caches) and an array read: no tag
 * list is built once a timer exists.
 */
public final class RequestTimers {
    /** The route tag of requests no router matched, so that raw paths never become tags. */
    public static final String UNMATCHED = "UNMATCHED";

    private static final HttpMethod[] METHODS = {
        HttpMethod.GET,
        HttpMethod.HEAD,
        HttpMethod.POST,
        HttpMethod.PUT,
        HttpMethod.DELETE,
        HttpMethod.OPTIONS,
        HttpMethod.PATCH,
        HttpMethod.TRACE,
        HttpMethod.CONNECT
    };
    private static final int OTHER_METHOD = METHODS.length;
    private static final int CLIENT_CLOSED = StatusClasses.COUNT;
    private static final int STATUSES = StatusClasses.COUNT + 1;
    private static final int SLOTS = (METHODS.length + 1) * STATUSES;

    private final MeterRegistry registry;
    private final Tags tags;
    private final boolean percentileHistogram;
    private final ConcurrentHashMap<String, RouteTimers> routes = new ConcurrentHashMap<>();
    private final RouteTimers unmatched;

    /** Timers named {@code parry.server.requests} with these extra tags. */
    public RequestTimers(MeterRegistry registry, Tags tags, boolean percentileHistogram) {
        this.registry = registry;
        this.tags = tags;
        this.percentileHistogram = percentileHistogram;
        this.unmatched = new RouteTimers(UNMATCHED);
    }

    /** Records the request's duration under its route, method and status class. */
    public void record(RequestLog log) {
        String route = log.route();
        RouteTimers timers = route == null ? unmatched : routes.get(route);
        if (timers == null) {
            timers = routes.computeIfAbsent(route, RouteTimers::new);
        }
        int slot = methodIndex(log.method()) * STATUSES + statusIndex(log);
        timers.timer(slot).record(log.durationNanos(), TimeUnit.NANOSECONDS);
    }

    private static int methodIndex(HttpMethod method) {
        // The server hands out the constants for standard methods, so identity finds them.
        for (int i = 0; i < METHODS.length; i++) {
            if (METHODS[i] == method) {
                return i;
            }
        }
        return OTHER_METHOD;
    }

    private static int statusIndex(RequestLog log) {
        return log.completed() ? StatusClasses.index(log.status()) : CLIENT_CLOSED;
    }

    /** The timers of one route, by slot (method and status class), registered on first use. */
    private final class RouteTimers {
        private final String route;
        private final AtomicReferenceArray<Timer> timers = new AtomicReferenceArray<>(SLOTS);

        RouteTimers(String route) {
            this.route = route;
        }

        Timer timer(int slot) {
            Timer timer = timers.get(slot);
            if (timer == null) {
                // A race registers twice; the registry hands both callers the same timer.
                timer = register(slot);
                timers.set(slot, timer);
            }
            return timer;
        }

        private Timer register(int slot) {
            int method = slot / STATUSES;
            int status = slot % STATUSES;
            return Timer.builder("parry.server.requests")
                    .description("Requests from their head to their last response byte")
                    .tags(tags)
                    .tag("route", route)
                    .tag("method", method == OTHER_METHOD ? "OTHER" : METHODS[method].name())
                    .tag("status", status == CLIENT_CLOSED ? "CLIENT_CLOSED" : StatusClasses.label(status))
                    .publishPercentileHistogram(percentileHistogram)
                    .register(registry);
        }
    }
}
