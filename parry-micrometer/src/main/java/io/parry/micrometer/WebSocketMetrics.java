package io.parry.micrometer;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.parry.server.websocket.WebSocketCounters;
import io.parry.server.websocket.WebSocketEnding;
import java.util.Locale;

/**
 * Micrometer meters that read a WebSocket endpoint's {@link WebSocketCounters}, tagged with the route
 * it serves and nothing else: never a path, a client address or a session, whose values would grow a
 * meter without bound.
 *
 * <pre>{@code
 * WebSocketEndpoint echo = WebSocketEndpoint.of(options, handler);
 * new WebSocketMetrics("echo", echo.counters()).bindTo(registry);
 * }</pre>
 *
 * <table>
 *   <caption>Meters, tagged {@code route}</caption>
 *   <tr><td>{@code parry.websocket.sessions}</td><td>gauge: sessions open</td></tr>
 *   <tr><td>{@code parry.websocket.sessions.opened}</td><td>counter</td></tr>
 *   <tr><td>{@code parry.websocket.sessions.ended}</td><td>counter per {@link WebSocketEnding} ({@code
 *       cause}, lower case)</td></tr>
 *   <tr><td>{@code parry.websocket.handshakes.refused}</td><td>counter: handshakes the endpoint
 *       answered 400, 403 or 426</td></tr>
 *   <tr><td>{@code parry.websocket.messages}</td><td>counter per {@code direction} ({@code in}, {@code
 *       out})</td></tr>
 * </table>
 *
 * <p>The meters read the counters when the registry is scraped; sessions cost nothing more. They hold
 * the counters weakly. Proxied sessions are counted by {@link ProxyMetrics} (route and upstream).
 */
public final class WebSocketMetrics implements MeterBinder {
    private final Tags tags;
    private final WebSocketCounters counters;

    /** Meters of the counters, tagged {@code route}. */
    public WebSocketMetrics(String route, WebSocketCounters counters) {
        this.tags = Tags.of("route", requireNonNull(route, "route"));
        this.counters = requireNonNull(counters, "counters");
    }

    /** Registers the meters; once per registry. */
    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("parry.websocket.sessions", counters, WebSocketCounters::open)
                .description("WebSocket sessions open")
                .tags(tags)
                .register(registry);
        FunctionCounter.builder("parry.websocket.sessions.opened", counters, WebSocketCounters::opened)
                .description("WebSocket sessions opened")
                .tags(tags)
                .register(registry);
        for (WebSocketEnding ending : WebSocketEnding.values()) {
            FunctionCounter.builder("parry.websocket.sessions.ended", counters, c -> c.endings(ending))
                    .description("WebSocket sessions that ended, by cause")
                    .tags(tags)
                    .tag("cause", ending.name().toLowerCase(Locale.ROOT))
                    .register(registry);
        }
        FunctionCounter.builder("parry.websocket.handshakes.refused", counters, WebSocketCounters::refused)
                .description("WebSocket handshakes the endpoint refused (400, 403, 426)")
                .tags(tags)
                .register(registry);
        FunctionCounter.builder("parry.websocket.messages", counters, WebSocketCounters::messagesIn)
                .description("WebSocket messages received and sent")
                .tags(tags)
                .tag("direction", "in")
                .register(registry);
        FunctionCounter.builder("parry.websocket.messages", counters, WebSocketCounters::messagesOut)
                .description("WebSocket messages received and sent")
                .tags(tags)
                .tag("direction", "out")
                .register(registry);
    }
}
