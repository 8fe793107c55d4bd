package io.parry.examples.hello;

import io.parry.demo.live.LiveRoutes;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.http.MediaType;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The hello routes, dispatched by hand: plaintext, JSON, a streaming echo, a delay answered from an
 * event-loop timer (so no thread waits), and the live routes shared with the gateway demo ({@link
 * LiveRoutes}: a WebSocket echo, server-sent ticks).
 */
final class HelloHandler implements Handler {
    private static final String MESSAGE = "Hello, World!";
    /** Responses are immutable, so one with a fixed body is built once and sent to every request. */
    private static final HttpResponse PLAINTEXT = HttpResponse.ofText(MESSAGE);

    /** The echo's type when the request has none. */
    private static final HttpHeaders OCTET_STREAM = HttpHeaders.of("content-type", MediaType.OCTET_STREAM.toString());

    private static final long MAX_DELAY_MILLIS = 60_000;

    private final Handler webSocketEcho = LiveRoutes.echo();
    private final Handler ticks = LiveRoutes.ticks();

    @Override
    public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) throws Exception {
        switch (request.path()) {
            case "/plaintext":
                requireMethod(request, HttpMethod.GET);
                return PLAINTEXT.toStage();
            case "/json":
                requireMethod(request, HttpMethod.GET);
                return HttpResponse.of(MediaType.JSON, HttpData.ofUtf8("{\"message\":\"" + MESSAGE + "\"}"))
                        .toStage();
            case "/echo":
                requireMethod(request, HttpMethod.POST);
                return echo(request).toStage();
            case "/delay":
                requireMethod(request, HttpMethod.GET);
                return delay(ctx, delayMillis(request));
            case "/ws/echo":
                requireMethod(request, HttpMethod.GET);
                return webSocketEcho.handle(ctx, request);
            case "/sse/ticks":
                requireMethod(request, HttpMethod.GET);
                return ticks.handle(ctx, request);
            default:
                throw new HttpStatusException(HttpStatus.NOT_FOUND, "No route for " + request.path());
        }
    }

    /**
     * Streams the request body back as it arrives, with its Content-Type; the body is never held whole. The type
     * was checked as the request arrived, and {@link HttpHeaders#only} hands it over without a second check.
     */
    private static HttpResponse echo(HttpRequest request) {
        HttpHeaders type = request.headers().only("content-type");
        return HttpResponse.of(HttpStatus.OK, type.isEmpty() ? OCTET_STREAM : type, request.body());
    }

    private static CompletionStage<HttpResponse> delay(RequestContext ctx, long millis) {
        CompletableFuture<HttpResponse> response = new CompletableFuture<>();
        ctx.eventLoop().schedule(() -> response.complete(PLAINTEXT), millis, TimeUnit.MILLISECONDS);
        return response;
    }

    private static long delayMillis(HttpRequest request) {
        String ms = request.queryParam("ms").orElse("0");
        long millis;
        try {
            millis = Long.parseLong(ms);
        } catch (NumberFormatException e) {
            throw new HttpStatusException(HttpStatus.BAD_REQUEST, "ms must be a whole number of milliseconds");
        }
        if (millis < 0 || millis > MAX_DELAY_MILLIS) {
            throw new HttpStatusException(HttpStatus.BAD_REQUEST, "ms must be from 0 to " + MAX_DELAY_MILLIS);
        }
        return millis;
    }

    private static void requireMethod(HttpRequest request, HttpMethod expected) {
        if (!request.method().equals(expected)
                && !(expected.equals(HttpMethod.GET) && request.method().equals(HttpMethod.HEAD))) {
            throw new HttpStatusException(HttpStatus.METHOD_NOT_ALLOWED, request.method() + " is not allowed here");
        }
    }
}
