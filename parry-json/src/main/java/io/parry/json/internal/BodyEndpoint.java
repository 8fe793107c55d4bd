package io.parry.json.internal;

import io.parry.http.HttpData;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.Problem;
import io.parry.json.InputCheck;
import io.parry.json.InvalidInputException;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A typed JSON endpoint that reads its input from the request content: checks the media type (415),
 * aggregates within the bound (413), decodes (400), validates (400 with errors), then invokes the
 * handler. Everything per request is prepared once: the check (absent when the type has no
 * constraints) and the invocation at build time, the decoder's reader at the first request.
 */
public final class BodyEndpoint<I> implements Handler {
    private final JsonDecoder<I> decoder;
    private final InputCheck<I> check;
    private final long maxBytes;
    private final Invocation<I> invocation;
    // Set once the check has said it is ready, so that later requests skip asking; a racy but
    // harmless cache (asking again is correct, only slower).
    private boolean ready;

    /** {@code check} is {@code null} when inputs need no validation. */
    public BodyEndpoint(JsonDecoder<I> decoder, InputCheck<I> check, long maxBytes, Invocation<I> invocation) {
        this.decoder = decoder;
        this.check = check;
        this.maxBytes = maxBytes;
        this.invocation = invocation;
    }

    @Override
    public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) {
        String refusal = ContentTypes.refusal(
                request.headers().get("content-type"), request.headers().get("content-encoding"));
        if (refusal != null) {
            return Problems.unsupportedMediaType(ctx, request, refusal).toStage();
        }
        return request.body().aggregate(maxBytes).thenCompose(data -> decodeAndInvoke(ctx, request, data));
    }

    private CompletionStage<HttpResponse> decodeAndInvoke(RequestContext ctx, HttpRequest request, HttpData data) {
        try {
            I input = decoder.decode(data);
            if (check == null) {
                return invocation.invoke(ctx, request, input);
            }
            if (!ready) {
                CompletableFuture<Void> preparing = check.ready().toCompletableFuture();
                if (!preparing.isDone()) {
                    return preparing.thenComposeAsync(prepared -> checkAndInvoke(ctx, request, input), ctx.eventLoop());
                }
                ready = true;
            }
            return checkAndInvoke(ctx, request, input);
        } catch (InvalidInputException e) {
            return Problems.invalidInput(ctx, request, e).toStage();
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private CompletionStage<HttpResponse> checkAndInvoke(RequestContext ctx, HttpRequest request, I input) {
        try {
            List<Problem.FieldError> errors = check.violations(input);
            if (!errors.isEmpty()) {
                return Problems.invalidInput(ctx, request, invalid(errors)).toStage();
            }
            return invocation.invoke(ctx, request, input);
        } catch (InvalidInputException e) {
            return Problems.invalidInput(ctx, request, e).toStage();
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static InvalidInputException invalid(List<Problem.FieldError> errors) {
        return new InvalidInputException(
                errors.size() == 1
                        ? "The request content is invalid in 1 field."
                        : "The request content is invalid in " + errors.size() + " fields.",
                errors);
    }
}
