package io.parry.client.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.ClientSender;
import io.parry.client.Endpoint;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A sender whose calls wait until the test answers them, one at a time, in the order they were sent. */
final class ScriptedSender implements ClientSender {
    private final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();

    @Override
    public CompletionStage<HttpResponse> send(Endpoint endpoint, HttpRequest request) {
        Call call = new Call(endpoint, request);
        calls.add(call);
        return call.response;
    }

    /** The next call sent, waiting for it up to five seconds. */
    Call next() throws InterruptedException {
        Call call = calls.poll(5, TimeUnit.SECONDS);
        assertThat(call).as("a call within 5 s").isNotNull();
        return call;
    }

    /** One call, answered by the test. */
    static final class Call {
        final Endpoint endpoint;
        final HttpRequest request;
        final CompletableFuture<HttpResponse> response = new CompletableFuture<>();
        /** Completes when the answer's body has been read to its end or cancelled. */
        final CompletableFuture<Void> bodyDone = new CompletableFuture<>();

        Call(Endpoint endpoint, HttpRequest request) {
            this.endpoint = endpoint;
            this.request = request;
        }

        void answer(int status) {
            HttpBody body = HttpBody.of(this::publishBody, 2);
            response.complete(HttpResponse.of(HttpStatus.of(status), HttpHeaders.empty(), body));
        }

        void fail(Throwable error) {
            response.completeExceptionally(error);
        }

        private void publishBody(Flow.Subscriber<? super HttpData> subscriber) {
            subscriber.onSubscribe(new Flow.Subscription() {
                private boolean sent;

                @Override
                public void request(long n) {
                    if (!sent) {
                        sent = true;
                        subscriber.onNext(HttpData.ofUtf8("ok"));
                        subscriber.onComplete();
                        bodyDone.complete(null);
                    }
                }

                @Override
                public void cancel() {
                    bodyDone.complete(null);
                }
            });
        }
    }
}
