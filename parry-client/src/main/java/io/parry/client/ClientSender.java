package io.parry.client;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import java.util.concurrent.CompletionStage;

/** Sends one request to one endpoint: the shape of a client, and of the rest of a filter chain. */
@FunctionalInterface
public interface ClientSender {
    /**
     * Sends the request and completes with the response once its headers arrived; the response body
     * streams after that and must be read or cancelled by the caller.
     */
    CompletionStage<HttpResponse> send(Endpoint endpoint, HttpRequest request);
}
