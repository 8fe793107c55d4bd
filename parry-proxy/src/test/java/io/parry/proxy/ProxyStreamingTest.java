package io.parry.proxy;

import static io.parry.proxy.ProxyFailuresTest.awaitTrue;
import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.RequestLimits;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bodies stream through the proxy with backpressure both ways, to HTTP/1.0 clients and with trailers.
 * The backpressure tests stop one side and check how far the other got: with backpressure that is a
 * few MiB of socket buffers and queues, without it the whole 64 MiB body.
 */
class ProxyStreamingTest {
    private static final long SIZE = 64L << 20;
    /** Socket buffers on three sockets plus the queues come to a few MiB; half the body is far beyond. */
    private static final long MAX_AHEAD = SIZE / 2;

    private static volatile GeneratedBody download;
    private static final AtomicLong uploaded = new AtomicLong();
    private static volatile CompletableFuture<Void> uploadGate = new CompletableFuture<>();

    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of(
            (ctx, request) -> {
                switch (request.path()) {
                    case "/download":
                        download = new GeneratedBody(SIZE);
                        return HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), HttpBody.of(download, SIZE))
                                .toStage();
                    case "/upload":
                        return readSlowly(request.body());
                    case "/trailers":
                        return HttpResponse.of(
                                        HttpStatus.OK,
                                        HttpHeaders.of("trailer", "x-checksum"),
                                        HttpBody.of(
                                                chunks("one ", "two"),
                                                CompletableFuture.completedFuture(
                                                        HttpHeaders.of("x-checksum", "c0ffee"))))
                                .toStage();
                    default:
                        String host = request.headers().get("host");
                        String via = request.headers().get("via");
                        return HttpResponse.of(
                                        HttpStatus.OK,
                                        HttpHeaders.empty(),
                                        HttpBody.of(chunks("host=" + host, "; via=" + via)))
                                .toStage();
                }
            },
            options -> options.limits(
                    RequestLimits.builder().maxBodySize(Long.MAX_VALUE).build()));

    private static final SwappableHandler handler = new SwappableHandler();

    @RegisterExtension
    static final ServerExtension gateway = ServerExtension.of(
            handler,
            options -> options.limits(
                    RequestLimits.builder().maxBodySize(Long.MAX_VALUE).build()));

    private static Endpoint endpoint;
    private static GuardedUpstream group;

    @BeforeAll
    static void proxyToUpstream() {
        endpoint = Endpoint.of("127.0.0.1", upstream.port());
        group = GuardedUpstream.builder(Upstream.of("stream", endpoint))
                .maxConcurrent(4)
                .build();
        handler.set(ProxyHandler.to(group));
    }

    @AfterAll
    static void closeGroup() {
        group.close();
    }

    @Test
    void pausesTheUpstreamWhileTheClientDoesNotRead() throws Exception {
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(64 * 1024);
            socket.connect(new InetSocketAddress("127.0.0.1", gateway.port()), 5_000);
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("GET /download HTTP/1.1\r\nHost: h\r\n\r\n".getBytes(ISO_8859_1));
            awaitTrue(() -> download != null && download.produced() > 0);

            long ahead = awaitStable(() -> download.produced());

            assertThat(ahead).as("bytes produced while the client read none").isLessThan(MAX_AHEAD);
            assertThat(group.inFlight()).isEqualTo(1);
            InputStream in = socket.getInputStream();
            String head = readHead(in);
            assertThat(head).startsWith("HTTP/1.1 200").containsIgnoringCase("content-length: " + SIZE);
            assertThat(skip(in, SIZE)).isEqualTo(SIZE);
        }
        assertThat(download.produced()).isEqualTo(SIZE);
        awaitTrue(() -> group.inFlight() == 0);
    }

    @Test
    void pausesTheClientWhileTheUpstreamDoesNotRead() throws Exception {
        uploaded.set(0);
        uploadGate = new CompletableFuture<>();
        AtomicLong written = new AtomicLong();
        try (Socket socket = new Socket()) {
            socket.setSendBufferSize(64 * 1024);
            socket.connect(new InetSocketAddress("127.0.0.1", gateway.port()), 5_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("PUT /upload HTTP/1.1\r\nHost: h\r\nContent-Length: " + SIZE + "\r\n\r\n").getBytes(ISO_8859_1));
            CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> write(out, SIZE, written));
            awaitTrue(() -> uploaded.get() > 0);

            long sent = awaitStable(written::get);

            assertThat(sent)
                    .as("bytes the client could send while the upstream read none")
                    .isLessThan(MAX_AHEAD);
            uploadGate.complete(null);
            writing.join();
            InputStream in = socket.getInputStream();
            assertThat(readHead(in)).startsWith("HTTP/1.1 200");
        }
        assertThat(uploaded.get()).isEqualTo(SIZE);
        awaitTrue(() -> group.inFlight() == 0);
    }

    @Test
    void streamsAChunkedBodyToAnHttp10ClientUntilTheClose() {
        try (RawConnection connection = gateway.connect()) {
            connection.send("GET /plain HTTP/1.0\n\n");
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("transfer-encoding")).isNull();
            assertThat(response.bodyText()).isEqualTo("host=" + endpoint.authority() + "; via=1.0 parry");
            assertThat(connection.isClosedByPeer()).isTrue();
        }
        awaitTrue(() -> group.inFlight() == 0);
    }

    @Test
    void passesResponseTrailersToTheClient() {
        try (RawConnection connection = gateway.connect()) {
            connection.send("GET /trailers HTTP/1.1\nHost: h\n\n");
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("transfer-encoding")).isEqualTo("chunked");
            assertThat(response.bodyText()).isEqualTo("one two");
            assertThat(response.trailer("x-checksum")).isEqualTo("c0ffee");
        }
        awaitTrue(() -> group.inFlight() == 0);
    }

    /** Reads one chunk, then nothing until the gate opens; answers with the bytes read. */
    private static CompletableFuture<HttpResponse> readSlowly(HttpBody body) {
        CompletableFuture<HttpResponse> done = new CompletableFuture<>();
        body.subscribe(new Flow.Subscriber<HttpData>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(1);
                uploadGate.thenRun(() -> subscription.request(Long.MAX_VALUE));
            }

            @Override
            public void onNext(HttpData item) {
                uploaded.addAndGet(item.length());
            }

            @Override
            public void onError(Throwable failure) {
                done.completeExceptionally(failure);
            }

            @Override
            public void onComplete() {
                done.complete(HttpResponse.ofText(Long.toString(uploaded.get())));
            }
        });
        return done;
    }

    /** Publishes each text as one chunk, as it is requested. */
    private static Flow.Publisher<HttpData> chunks(String... texts) {
        return subscriber -> subscriber.onSubscribe(new Flow.Subscription() {
            private int next;
            private long demand;
            private boolean emitting;

            @Override
            public synchronized void request(long n) {
                demand += n;
                if (emitting) {
                    return;
                }
                emitting = true;
                while (demand > 0 && next <= texts.length) {
                    if (next == texts.length) {
                        next++;
                        subscriber.onComplete();
                    } else {
                        demand--;
                        subscriber.onNext(HttpData.ofUtf8(texts[next++]));
                    }
                }
                emitting = false;
            }

            @Override
            public synchronized void cancel() {
                next = texts.length + 1;
            }
        });
    }

    /** The value once it stopped changing for 300 ms: how far a side got before backpressure held it. */
    private static long awaitStable(LongSupplier value) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        long last = value.getAsLong();
        int unchanged = 0;
        while (unchanged < 6) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("still moving after 10 s: " + last);
            }
            Thread.sleep(50);
            long now = value.getAsLong();
            unchanged = now == last ? unchanged + 1 : 0;
            last = now;
        }
        return last;
    }

    private static void write(OutputStream out, long total, AtomicLong written) {
        byte[] block = new byte[64 * 1024];
        try {
            while (written.get() < total) {
                int length = (int) Math.min(block.length, total - written.get());
                out.write(block, 0, length);
                written.addAndGet(length);
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed in the response head: " + head.toString(ISO_8859_1));
            }
            head.write(b);
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
        }
        return head.toString(ISO_8859_1);
    }

    private static long skip(InputStream in, long count) throws IOException {
        byte[] sink = new byte[64 * 1024];
        long read = 0;
        while (read < count) {
            int n = in.read(sink, 0, (int) Math.min(sink.length, count - read));
            if (n < 0) {
                break;
            }
            read += n;
        }
        return read;
    }
}
