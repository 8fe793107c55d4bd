package io.parry.client.internal;

import static java.util.Objects.requireNonNull;

import io.parry.client.ClientFilter;
import io.parry.client.ClientOptions;
import io.parry.client.ClientTimeouts;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.PoolStats;
import io.parry.client.RequestWritten;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.transport.spi.CallerContext;
import io.parry.transport.spi.CurrentCaller;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** The {@link HttpClient}: filters around calls that {@link ClientLoops} places on event loops. */
public final class DefaultHttpClient implements HttpClient {
    private final ClientOptions options;
    private final List<ClientFilter> filters;
    private final ClientLoops loops;

    public DefaultHttpClient(ClientOptions options, List<ClientFilter> filters) {
        this.options = requireNonNull(options, "options");
        this.filters = List.copyOf(filters);
        this.loops = new ClientLoops(options, new ClientTls(options));
        ClientResolver.preload();
    }

    @Override
    public CompletionStage<HttpResponse> send(Endpoint endpoint, HttpRequest request) {
        return send(endpoint, request, options.timeouts());
    }

    @Override
    public CompletionStage<HttpResponse> send(Endpoint endpoint, HttpRequest request, ClientTimeouts timeouts) {
        return send(endpoint, request, timeouts, null);
    }

    @Override
    public CompletionStage<HttpResponse> send(
            Endpoint endpoint, HttpRequest request, ClientTimeouts timeouts, RequestWritten written) {
        requireNonNull(endpoint, "endpoint");
        requireNonNull(request, "request");
        requireNonNull(timeouts, "timeouts");
        // Taken on the sending thread, before a filter may move the call to another.
        CallerContext caller = CurrentCaller.get();
        if (filters.isEmpty()) {
            return call(endpoint, request, timeouts, caller, written);
        }
        return FilterChain.send(filters, (e, r) -> call(e, r, timeouts, caller, written), endpoint, request);
    }

    @Override
    public CompletionStage<HttpResponse> send(HttpRequest request) {
        requireNonNull(request, "request");
        return send(endpointOf(request), request);
    }

    @Override
    public PoolStats poolStats(Endpoint endpoint) {
        return loops.stats(requireNonNull(endpoint, "endpoint"));
    }

    @Override
    public ClientOptions options() {
        return options;
    }

    @Override
    public void close() {
        loops.close();
    }

    /**
     * Starts the call after the filters, so a filter may give it a span of its own (a tracing
     * bridge's) before the client gives it one.
     */
    private CompletableFuture<HttpResponse> call(
            Endpoint endpoint,
            HttpRequest request,
            ClientTimeouts timeouts,
            CallerContext caller,
            RequestWritten written) {
        if (loops.isClosed()) {
            return CompletableFuture.failedFuture(new IllegalStateException("the client is closed"));
        }
        HttpRequest sent = options.tracing() ? CallTraces.traced(request, caller) : request;
        try {
            return loops.call(endpoint, sent, timeouts, caller, written);
        } catch (IllegalStateException e) {
            return CompletableFuture.failedFuture(e); // Closed while this call was being placed.
        }
    }

    /**
     * The endpoint named by an absolute {@code http://host[:port]/path} or {@code https://...} target
     * (RFC 9112, section 3.2.2).
     */
    private static Endpoint endpointOf(HttpRequest request) {
        String target = request.target();
        boolean secure = target.regionMatches(true, 0, "https://", 0, "https://".length());
        if (!secure && !target.regionMatches(true, 0, "http://", 0, "http://".length())) {
            throw new IllegalArgumentException(
                    "target: " + target + " (expected: an absolute http:// or https:// URL)");
        }
        int start = secure ? "https://".length() : "http://".length();
        int end = start;
        while (end < target.length() && "/?#".indexOf(target.charAt(end)) < 0) {
            end++;
        }
        return Endpoint.parse((secure ? "https://" : "") + target.substring(start, end));
    }
}
