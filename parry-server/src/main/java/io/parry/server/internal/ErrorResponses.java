package io.parry.server.internal;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.http.Problem;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns failures into problem responses. Application failures are logged here once, with the
 * request id that the client also receives; their messages never reach the client.
 */
final class ErrorResponses {
    private static final Logger log = LoggerFactory.getLogger("io.parry.server.errors");

    private ErrorResponses() {}

    static HttpResponse forFailure(Exchange exchange, Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof HttpStatusException) {
            HttpStatusException statusException = (HttpStatusException) cause;
            return problem(exchange, statusException.status(), statusException.detail());
        }
        CurrentContext.run(
                exchange,
                () -> log.error(
                        "{} {} failed (request id {})",
                        exchange.request().method(),
                        exchange.request().path(),
                        exchange.requestId(),
                        cause));
        return problem(exchange, HttpStatus.INTERNAL_SERVER_ERROR, null);
    }

    static HttpResponse problem(Exchange exchange, HttpStatus status, String detail) {
        Problem problem = Problem.of(status).detail(detail).requestId(exchange.requestId());
        HttpRequest request = exchange.requestOrNull();
        return (request != null ? problem.instance(request.path()) : problem).toResponse();
    }

    static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof CancellationException) {
            return new HttpStatusException(HttpStatus.SERVICE_UNAVAILABLE, null, cause);
        }
        return cause;
    }
}
