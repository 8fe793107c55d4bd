package io.parry.client;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import java.util.concurrent.CompletionStage;

/**
 * Wraps the rest of a client's chain, as a server {@code Filter} wraps a handler: for headers,
 * authentication, logging. It runs on the thread that sent the call, or the event loop of the call's
 * connection for work chained on the returned stage.
 *
 * <pre>{@code
 * ClientFilter auth = (next, endpoint, request) ->
 *         next.send(endpoint, request.mapHeaders(h -> h.set("Authorization", "Bearer " + token)));
 * }</pre>
 */
@FunctionalInterface
public interface ClientFilter {
    /** Handles one call, usually by passing a (changed) request to {@code next}. */
    CompletionStage<HttpResponse> filter(ClientSender next, Endpoint endpoint, HttpRequest request);
}
