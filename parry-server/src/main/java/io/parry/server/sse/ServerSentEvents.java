package io.parry.server.sse;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpBody;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * Server-sent events: turns a {@link Flow.Publisher} of {@link ServerSentEvent}s into a {@code
 * text/event-stream} response (the HTML standard, section 9.2).
 *
 * <p>Each event leaves in a write of its own, flushed at once. While no event comes for the heartbeat
 * interval, a comment line goes out instead, so proxies and clients see a live stream. Events are
 * requested one at a time as the client's socket takes them, so a slow client slows the publisher
 * down. When the client goes away the publisher is cancelled; when the publisher completes the
 * response ends; when it fails the connection closes, so the client sees a broken stream.
 *
 * <pre>{@code
 * Router.builder().get("/ticks", ServerSentEvents.handler((ctx, request, lastEventId) -> ticks(lastEventId)))
 * }</pre>
 */
public final class ServerSentEvents {
    /** The heartbeat interval {@link #handler(EventSource)} uses. */
    public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(15);

    private static final HttpHeaders HEADERS = HttpHeaders.of(
            "content-type", "text/event-stream; charset=utf-8",
            "cache-control", "no-cache",
            // Tells NGINX-style buffering proxies to pass each event on as it comes.
            "x-accel-buffering", "no");

    private ServerSentEvents() {}

    /** A handler that answers with the source's events and a heartbeat every 15 seconds. */
    public static Handler handler(EventSource source) {
        return handler(DEFAULT_HEARTBEAT, source);
    }

    /** A handler that answers with the source's events and a heartbeat at this interval ({@code ZERO}: none). */
    public static Handler handler(Duration heartbeat, EventSource source) {
        requireNonNull(heartbeat, "heartbeat");
        requireNonNull(source, "source");
        return (ctx, request) -> CompletableFuture.completedFuture(
                response(ctx, source.open(ctx, request, lastEventId(request)), heartbeat));
    }

    /** A {@code text/event-stream} response of these events, with a heartbeat at this interval ({@code ZERO}: none). */
    public static HttpResponse response(
            RequestContext ctx, Flow.Publisher<ServerSentEvent> events, Duration heartbeat) {
        requireNonNull(events, "events");
        if (heartbeat.isNegative()) {
            throw new IllegalArgumentException("heartbeat: " + heartbeat + " (expected: >= 0, 0 disables)");
        }
        HttpBody body = HttpBody.of(new EventStream(events, ctx.eventLoop(), heartbeat));
        return HttpResponse.of(HttpStatus.OK, HEADERS, body);
    }

    /** The {@code Last-Event-ID} a reconnecting client sent, or {@code null}. */
    public static String lastEventId(HttpRequest request) {
        return request.headers().get("last-event-id");
    }
}
