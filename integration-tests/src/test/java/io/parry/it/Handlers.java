package io.parry.it;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.server.Handler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Handlers shared by the protocol tests. */
final class Handlers {
    private Handlers() {}

    /** Answers {@code path=<path> method=<method>}; {@code /echo} streams the body back; {@code /delay?ms=N} waits on a timer. */
    static Handler describing() {
        return (ctx, request) -> {
            switch (request.path()) {
                case "/echo":
                    return HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), request.body())
                            .toStage();
                case "/delay":
                    CompletableFuture<HttpResponse> later = new CompletableFuture<>();
                    long ms = Long.parseLong(request.queryParam("ms").orElse("0"));
                    ctx.eventLoop()
                            .schedule(
                                    () -> later.complete(HttpResponse.ofText("delayed " + ms)),
                                    ms,
                                    TimeUnit.MILLISECONDS);
                    return later;
                case "/aggregate":
                    return request.body()
                            .aggregate(1 << 20)
                            .thenApply(body -> HttpResponse.ofText("got " + body.length() + " bytes"));
                case "/fail":
                    throw new IllegalStateException("secret internal detail");
                case "/teapot":
                    throw new HttpStatusException(HttpStatus.of(418), "short and stout");
                default:
                    return HttpResponse.ofText("path=" + request.path() + " method=" + request.method())
                            .toStage();
            }
        };
    }
}
