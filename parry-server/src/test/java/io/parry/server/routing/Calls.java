package io.parry.server.routing;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.StubContext;
import java.util.TreeMap;

/** Calls a router in-process and reads its answers. */
final class Calls {
    private Calls() {}

    /** A handler answering {@code <name> <sorted path params>}. */
    static Handler named(String name) {
        return (ctx, request) -> HttpResponse.ofText(name + " " + new TreeMap<>(ctx.pathParams()))
                .toStage();
    }

    static HttpResponse call(Handler router, String method, String target, String... headers) {
        HttpRequest.Builder request = HttpRequest.builder(HttpMethod.of(method), target);
        boolean hostGiven = false;
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
            hostGiven |= headers[i].equalsIgnoreCase("host");
        }
        if (!hostGiven) {
            request.header("host", "a");
        }
        try {
            return router.handle(new StubContext(), request.build())
                    .toCompletableFuture()
                    .join();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static String body(HttpResponse response) {
        return response.body().aggregate(1 << 16).toCompletableFuture().join().toStringUtf8();
    }

    static String get(Handler router, String target, String... headers) {
        return body(call(router, "GET", target, headers));
    }
}
