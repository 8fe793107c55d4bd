package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.testing.ServerExtension;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Streams 32 MiB each way between a fast side and a slow one, and checks how far the fast side ran
 * ahead: with backpressure that is bounded by socket buffers and watermarks, without it it would be
 * most of the body.
 */
class BackpressureTest {
    private static final long SIZE = 32L << 20;
    /** Socket buffers on both ends plus the client's and server's queues come to a few MiB (4.5 measured). */
    private static final long MAX_AHEAD = 16L << 20;

    private static final GeneratedBody[] download = new GeneratedBody[1];

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of((ctx, request) -> {
        download[0] = GeneratedBody.ofSize(SIZE);
        return HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), HttpBody.of(download[0], SIZE))
                .toStage();
    });

    private static final HttpClient client = HttpClient.builder()
            .options(ClientOptions.builder().eventLoopThreads(1).build())
            .build();

    @AfterAll
    static void closeClient() {
        client.close();
    }

    @Test
    void pausesTheRequestBodySourceWhileTheUpstreamReadsSlowly() {
        GeneratedBody upload = GeneratedBody.ofSize(SIZE);
        AtomicLong maxAhead = new AtomicLong();
        AtomicLong received = new AtomicLong();
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readHead();
            received.set(connection.drain(SIZE, 64 * 1024, total -> {
                maxAhead.accumulateAndGet(upload.produced.get() - total, Math::max);
                sleepAMillisecond();
            }));
            connection.send("HTTP/1.1 200 OK\nContent-Length: 4\n\ndone");
            connection.awaitClose();
        })) {
            HttpRequest request = HttpRequest.builder(HttpMethod.POST, "/upload")
                    .body(HttpBody.of(upload, SIZE))
                    .build();

            HttpResponse response = await(client.send(upstream.endpoint(), request));

            assertThat(text(response)).isEqualTo("done");
            assertThat(received.get()).isEqualTo(SIZE);
            assertThat(maxAhead.get())
                    .as("bytes produced ahead of the upstream")
                    .isLessThan(MAX_AHEAD);
        }
    }

    @Test
    void pausesReadingTheUpstreamWhileTheResponseBodyIsReadSlowly() {
        HttpResponse response = await(
                client.send(Endpoint.of("127.0.0.1", server.port()), HttpRequest.of(HttpMethod.GET, "/download")));
        SlowReader reader = new SlowReader();

        response.body().subscribe(reader);

        assertThat(await(reader.done)).isEqualTo(SIZE);
        assertThat(reader.maxAhead).as("bytes produced ahead of the reader").isLessThan(MAX_AHEAD);
    }

    private static void sleepAMillisecond() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Reads 64 KiB per millisecond at most, asking for more from another thread. */
    private static final class SlowReader implements Flow.Subscriber<HttpData> {
        final CompletableFuture<Long> done = new CompletableFuture<>();
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        private Flow.Subscription subscription;
        private long consumed;
        private long sinceNap;
        volatile long maxAhead;

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(1);
        }

        @Override
        public void onNext(HttpData chunk) {
            consumed += chunk.length();
            sinceNap += chunk.length();
            maxAhead = Math.max(maxAhead, download[0].produced.get() - consumed);
            if (sinceNap >= 64 * 1024) {
                sinceNap = 0;
                timer.schedule(() -> subscription.request(1), 1, TimeUnit.MILLISECONDS);
            } else {
                subscription.request(1);
            }
        }

        @Override
        public void onError(Throwable failure) {
            timer.shutdown();
            done.completeExceptionally(failure);
        }

        @Override
        public void onComplete() {
            timer.shutdown();
            done.complete(consumed);
        }
    }
}
