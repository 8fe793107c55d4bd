package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.gateway.internal.demo.DemoCertificate;
import io.parry.server.RequestLimits;
import io.parry.testing.ServerExtension;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bodies larger than the gateway's heap and direct memory together stream through the gateway's main class in a JVM
 * of its own with {@code -Xmx64m}, over HTTP/2 at both hops (h2 by ALPN from the JDK's client, h2c to the upstream):
 * every byte arrives, and the heap left after each GC stays flat. Up and down are separate calls, as the JDK's client
 * reads no response before it has sent the whole request. benchmarks/h2-stream.sh streams 1 GiB
 * both ways at once through an echo.
 */
class GatewayHttp2StreamTest {
    private static final long SIZE = 96L << 20;
    private static final long FLAT_HEAP_MIB = 32;
    private static final Duration STALL = Duration.ofSeconds(30);
    private static final Pattern HEAP_AFTER_GC = Pattern.compile("\\d+M->(\\d+)M\\(\\d+M\\)");
    private static final DemoCertificate CERTIFICATE = DemoCertificate.generate();

    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of(
            PatternUpstream.handler(),
            options -> options.limits(
                    RequestLimits.builder().maxBodySize(Long.MAX_VALUE).build()));

    @TempDir
    Path dir;

    @Test
    void streamsARequestBodyLargerThanItsMemoryUpOverHttp2AtBothHopsWithAFlatHeap() throws Exception {
        Path gcLog = dir.resolve("gc.log");
        try (ChildGateway gateway = start(gcLog)) {
            PatternBody body = new PatternBody(SIZE);
            // No deadline for the whole upload, which a loaded machine may take minutes to send: it fails
            // when its bytes stop moving.
            java.net.http.HttpResponse<String> upload = whileMoving(
                    client().sendAsync(
                                    HttpRequest.newBuilder(URI.create(base(gateway) + "/upload"))
                                            .POST(BodyPublishers.ofInputStream(() -> body))
                                            .build(),
                                    BodyHandlers.ofString()),
                    body::position,
                    gateway);

            assertThat(upload.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(upload.statusCode()).isEqualTo(200);
            assertThat(upload.body()).isEqualTo(SIZE + " " + PatternBody.crc(SIZE));
            assertThat(maxHeapAfterGcMiB(gcLog)).isLessThan(FLAT_HEAP_MIB);
        }
    }

    @Test
    void streamsAResponseBodyLargerThanItsMemoryDownOverHttp2AtBothHopsWithAFlatHeap() throws Exception {
        Path gcLog = dir.resolve("gc.log");
        try (ChildGateway gateway = start(gcLog)) {
            java.net.http.HttpResponse<InputStream> download;
            long[] downloaded;
            try {
                download = client().send(
                                HttpRequest.newBuilder(URI.create(base(gateway) + "/download?bytes=" + SIZE))
                                        .timeout(Duration.ofSeconds(120))
                                        .build(),
                                BodyHandlers.ofInputStream());
                downloaded = lengthAndCrc(download.body());
            } catch (IOException e) {
                throw new AssertionError("the download failed; the gateway's output:\n" + gateway.output(), e);
            }

            assertThat(download.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(download.statusCode()).isEqualTo(200);
            assertThat(downloaded).containsExactly(SIZE, PatternBody.crc(SIZE));
            assertThat(maxHeapAfterGcMiB(gcLog)).isLessThan(FLAT_HEAP_MIB);
        }
    }

    /**
     * The call's response once it completes, or an assertion error (with the gateway's output) when it fails or
     * {@code moved} has not changed for {@link #STALL}.
     */
    private static <T> T whileMoving(CompletableFuture<T> call, LongSupplier moved, ChildGateway gateway)
            throws InterruptedException {
        long last = -1;
        long lastMoved = System.nanoTime();
        while (true) {
            try {
                return call.get(1, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw new AssertionError("the call failed; the gateway's output:\n" + gateway.output(), e.getCause());
            } catch (TimeoutException stillRunning) {
                long now = moved.getAsLong();
                if (now != last) {
                    last = now;
                    lastMoved = System.nanoTime();
                } else if (System.nanoTime() - lastMoved > STALL.toNanos()) {
                    call.cancel(true);
                    throw new AssertionError("no byte moved for " + STALL.toSeconds() + " s after " + now
                            + "; the gateway's output:\n" + gateway.output());
                }
            }
        }
    }

    private ChildGateway start(Path gcLog) throws IOException {
        List<String> jvm = List.of("-Xmx64m", "-XX:MaxDirectMemorySize=64m", "-Xlog:gc:file=" + gcLog);
        return ChildGateway.start(jvm, Map.of(), configuration().toString());
    }

    private static HttpClient client() throws Exception {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .sslContext(GatewayTlsTest.trusting(CERTIFICATE))
                .build();
    }

    private static String base(ChildGateway gateway) {
        return "https://localhost:" + gateway.awaitPorts()[0];
    }

    private Path configuration() throws IOException {
        Path chain = Files.writeString(
                dir.resolve("chain.pem"), CERTIFICATE.tls().chainPem().orElseThrow());
        Path key = Files.writeString(
                dir.resolve("key.pem"), CERTIFICATE.tls().keyPem().orElseThrow());
        return Files.writeString(
                dir.resolve("gateway.yaml"),
                """
                listener: { host: 127.0.0.1, port: 0, tls: { certificates: [{ chain: %s, key: %s }] } }
                admin: { host: 127.0.0.1, port: 0 }
                accessLog: json
                limits: { maxBodySize: 1024GiB }
                upstreams:
                  patterns: { endpoints: ["127.0.0.1:%d"], protocol: h2c }
                routes:
                  - { name: patterns, match: { prefix: / }, proxy: { upstream: patterns } }
                """
                        .formatted(chain, key, upstream.port()));
    }

    private static long[] lengthAndCrc(InputStream body) throws IOException {
        CRC32 crc = new CRC32();
        byte[] buffer = new byte[64 * 1024];
        long length = 0;
        try (body) {
            for (int n = body.read(buffer); n >= 0; n = body.read(buffer)) {
                crc.update(buffer, 0, n);
                length += n;
            }
        }
        return new long[] {length, crc.getValue()};
    }

    private static long maxHeapAfterGcMiB(Path gcLog) throws IOException {
        Matcher matcher = HEAP_AFTER_GC.matcher(Files.readString(gcLog));
        long max = 0;
        while (matcher.find()) {
            max = Math.max(max, Long.parseLong(matcher.group(1)));
        }
        return max;
    }
}
