package io.parry.demo.live;

import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.server.Handler;
import io.parry.server.sse.ServerSentEvents;
import io.parry.server.websocket.WebSocketEndpoint;
import io.parry.server.websocket.WebSocketOptions;
import java.time.Duration;

/**
 * The live routes that examples/hello and the gateway demo's service share: a WebSocket echo and a
 * stream of server-sent ticks.
 *
 * <ul>
 *   <li>{@code GET /ws/echo}: echoes every message, text and binary, with permessage-deflate, taking
 *       messages of up to 16 MiB (enough for the whole Autobahn suite). Each message is read only once
 *       the previous echo was written, so a client that does not read its echoes stops being read.
 *   <li>{@code GET /sse/ticks?n=N}: N events ({@code id} and {@code data} the tick's number, from 1),
 *       the first at once and then one every 100 ms, then the stream ends. A client that reconnects
 *       with {@code Last-Event-ID: k} gets the ticks after k.
 * </ul>
 */
public final class LiveRoutes {
    /** The largest message {@code /ws/echo} takes. */
    public static final int MAX_ECHO_MESSAGE = 16 * 1024 * 1024;
    /** The most ticks one request may ask for. */
    public static final int MAX_TICKS = 100_000;

    private static final Duration TICK = Duration.ofMillis(100);

    private LiveRoutes() {}

    /** The WebSocket echo endpoint. */
    public static WebSocketEndpoint echo() {
        WebSocketOptions options = WebSocketOptions.builder()
                .maxFrameSize(MAX_ECHO_MESSAGE)
                .maxMessageSize(MAX_ECHO_MESSAGE)
                .build();
        return WebSocketEndpoint.of(options, (ctx, handshake) -> handshake
                .accept(session -> session.messages().subscribe(new Echo(session)))
                .toStage());
    }

    /** The server-sent ticks. */
    public static Handler ticks() {
        return ServerSentEvents.handler((ctx, request, lastEventId) -> {
            int count = count(request.queryParam("n").orElse("10"));
            long after = lastEventId == null ? 0 : parseLastId(lastEventId);
            return new Ticks(ctx.eventLoop(), after + 1, count, TICK);
        });
    }

    private static int count(String n) {
        try {
            int count = Integer.parseInt(n);
            if (count >= 0 && count <= MAX_TICKS) {
                return count;
            }
        } catch (NumberFormatException e) {
            // Answered below.
        }
        throw new HttpStatusException(HttpStatus.BAD_REQUEST, "n must be a whole number from 0 to " + MAX_TICKS);
    }

    private static long parseLastId(String lastEventId) {
        try {
            return Math.max(0, Long.parseLong(lastEventId.trim()));
        } catch (NumberFormatException e) {
            return 0; // Not one of ours: start from the first tick.
        }
    }
}
