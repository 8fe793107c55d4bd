package io.parry.proxy;

import io.parry.client.ClientOptions;
import io.parry.client.ClientTimeouts;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.PoolStats;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import java.util.concurrent.CompletionStage;

/** A client that throws from {@code send} for {@code /throw}, as a faulty implementation might. */
final class ThrowingClient implements HttpClient {
    private final HttpClient client;

    ThrowingClient(HttpClient client) {
        this.client = client;
    }

    @Override
    public CompletionStage<HttpResponse> send(Endpoint endpoint, HttpRequest request) {
        return send(endpoint, request, client.options().timeouts());
    }

    @Override
    public CompletionStage<HttpResponse> send(Endpoint endpoint, HttpRequest request, ClientTimeouts timeouts) {
        if (request.path().equals("/throw")) {
            throw new IllegalStateException("thrown instead of failing the stage");
        }
        return client.send(endpoint, request, timeouts);
    }

    @Override
    public CompletionStage<HttpResponse> send(HttpRequest request) {
        return client.send(request);
    }

    @Override
    public PoolStats poolStats(Endpoint endpoint) {
        return client.poolStats(endpoint);
    }

    @Override
    public ClientOptions options() {
        return client.options();
    }

    @Override
    public void close() {
        client.close();
    }
}
