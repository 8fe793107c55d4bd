package io.parry.client.internal;

import io.parry.client.ClientFilter;
import io.parry.client.ClientSender;
import io.parry.client.Endpoint;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.spi.AggregatingSubscriber;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One send through a client's filters, the first added outermost. The caller gets a future of its
 * own: completing it in any way before the filters do (cancelling it, or {@code orTimeout}) cancels
 * every call the filters started for this send, and a response that arrives after the caller gave up
 * has its body cancelled, so its connection does not wait for a reader that will never come.
 */
final class FilterChain extends CompletableFuture<HttpResponse> implements ClientSender {
    private final ClientSender terminal;
    private final ConcurrentLinkedQueue<CompletableFuture<HttpResponse>> calls = new ConcurrentLinkedQueue<>();
    private volatile boolean abandoned;

    private FilterChain(ClientSender terminal) {
        this.terminal = terminal;
    }

    /** Sends the request through the filters to the terminal sender. */
    static CompletableFuture<HttpResponse> send(
            List<ClientFilter> filters, ClientSender terminal, Endpoint endpoint, HttpRequest request) {
        FilterChain chain = new FilterChain(terminal);
        ClientSender next = chain;
        for (int i = filters.size() - 1; i >= 0; i--) {
            ClientFilter filter = filters.get(i);
            ClientSender inner = next;
            next = (e, r) -> filter.filter(inner, e, r);
        }
        CompletionStage<HttpResponse> stage;
        try {
            stage = next.send(endpoint, request);
        } catch (RuntimeException e) {
            stage = CompletableFuture.failedFuture(e);
        }
        if (stage == null) {
            stage = CompletableFuture.failedFuture(new NullPointerException("a client filter returned null"));
        }
        stage.whenComplete(chain::settle);
        return chain;
    }

    /** The innermost sender: starts a call and remembers it, cancelling it at once if the caller gave up. */
    @Override
    public CompletionStage<HttpResponse> send(Endpoint endpoint, HttpRequest request) {
        CompletableFuture<HttpResponse> call = terminal.send(endpoint, request).toCompletableFuture();
        calls.add(call);
        if (abandoned) {
            call.cancel(false);
        }
        return call;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled) {
            abandon();
        }
        return cancelled;
    }

    @Override
    public boolean complete(HttpResponse value) {
        boolean completed = super.complete(value);
        if (completed) {
            abandon();
        }
        return completed;
    }

    @Override
    public boolean completeExceptionally(Throwable cause) {
        boolean completed = super.completeExceptionally(cause);
        if (completed) {
            abandon();
        }
        return completed;
    }

    /** The caller completed the future itself: nobody wants what the filters' calls bring. */
    private void abandon() {
        abandoned = true;
        for (CompletableFuture<HttpResponse> call : calls) {
            call.cancel(false);
        }
    }

    private void settle(HttpResponse response, Throwable failure) {
        if (failure != null) {
            super.completeExceptionally(
                    failure instanceof CompletionException && failure.getCause() != null
                            ? failure.getCause()
                            : failure);
        } else if (!super.complete(response) && response != null) {
            response.body().subscribe(AggregatingSubscriber.cancelling());
        }
    }
}
