package io.parry.benchmarks.socketless;

import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.MediaType;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletionStage;

/** The hello example's plaintext, JSON and echo routes, dispatched by hand as it does. */
final class HelloRoutes implements Handler {
    private static final HttpResponse PLAINTEXT = HttpResponse.ofText("Hello, World!");
    private static final HttpHeaders OCTET_STREAM = HttpHeaders.of("content-type", MediaType.OCTET_STREAM.toString());

    @Override
    public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) {
        switch (request.path()) {
            case "/plaintext":
                return PLAINTEXT.toStage();
            case "/json":
                return HttpResponse.of(MediaType.JSON, HttpData.ofUtf8("{\"message\":\"Hello, World!\"}"))
                        .toStage();
            case "/echo":
                HttpHeaders type = request.headers().only("content-type");
                return HttpResponse.of(HttpStatus.OK, type.isEmpty() ? OCTET_STREAM : type, request.body())
                        .toStage();
            default:
                return HttpResponse.of(HttpStatus.NOT_FOUND).toStage();
        }
    }
}
