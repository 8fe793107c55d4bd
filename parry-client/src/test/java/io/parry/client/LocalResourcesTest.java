package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.eventually;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A process with no file descriptor left cannot make a socket. The call fails as the process's own
 * failure, not the upstream's, and the pool forgets the connect it had counted, so calls succeed again
 * once descriptors are free. The test lowers its own JVM's open-files limit (util-linux's {@code
 * prlimit}) and takes every descriptor left, for the moment of one call.
 */
class LocalResourcesTest {
    private static final Path OPEN_FILES = Path.of("/proc/self/fd");
    private static final Path PRLIMIT = Path.of("/usr/bin/prlimit");

    @Test
    void failsWithLocalResourceAndHoldsNoConnectWhenNoFileDescriptorIsLeft() throws Exception {
        Assumptions.assumeTrue(
                Files.isDirectory(OPEN_FILES) && Files.isExecutable(PRLIMIT),
                "needs Linux and prlimit (apt-get install util-linux)");
        Class.forName(LocalResourceException.class.getName()); // Loading it later would need a descriptor.
        try (RawUpstream upstream = RawUpstream.start(connection -> {
                    connection.readRequest();
                    connection.send("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
                    connection.awaitClose();
                });
                HttpClient client = HttpClient.builder()
                        .options(ClientOptions.builder().eventLoopThreads(1).build())
                        .build()) {
            Endpoint endpoint = upstream.endpoint();
            // The classes of a failed and of a served call, loaded now: loading one from a directory takes a
            // descriptor.
            await(client.send(Endpoint.of("127.0.0.1", 1), get()).handle((response, failure) -> null));
            assertThat(text(await(client.send(endpoint, closing())))).isEqualTo("ok");
            eventually(() -> client.poolStats(endpoint).isEmpty());

            Throwable failure;
            String[] limits = openFilesLimit();
            setOpenFilesLimit(String.valueOf(openFiles() + 64), limits[1]);
            List<FileInputStream> ballast = new ArrayList<>();
            try {
                failure = callWithNoDescriptorLeft(client, endpoint, ballast);
            } finally {
                release(ballast);
                setOpenFilesLimit(limits[0], limits[1]); // Starting prlimit needs descriptors of its own.
            }

            assertThat(failure).isInstanceOf(LocalResourceException.class).hasMessageContaining("127.0.0.1");
            assertThat(((ClientException) failure).requestSent()).isFalse();
            assertThat(((ClientException) failure).callerCaused()).isFalse();
            assertThat(client.poolStats(endpoint)).matches(PoolStats::isEmpty);
            assertThat(text(await(client.send(endpoint, get())))).isEqualTo("ok");
        }
    }

    /**
     * The failure of a call made with every descriptor taken. A descriptor another thread of this JVM
     * closes meanwhile (an earlier test's event loops ending, say) lets a connection open: the upstream,
     * in this JVM too, then needs a descriptor to accept it, so the test gives them back, lets the call
     * finish, and takes every descriptor again for the next call.
     */
    private static Throwable callWithNoDescriptorLeft(
            HttpClient client, Endpoint endpoint, List<FileInputStream> ballast) throws IOException {
        for (int attempt = 1; attempt <= 5; attempt++) {
            takeEveryFileDescriptor(ballast);
            CompletableFuture<HttpResponse> call =
                    client.send(endpoint, closing()).toCompletableFuture();
            // Either the socket could not be made and the call fails, or a connection opened and serves it.
            eventually(() -> call.isDone() || client.poolStats(endpoint).active() > 0);
            Throwable failure = call.isDone() ? await(call.handle((response, error) -> error)) : null;
            if (failure != null) {
                return failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause()
                        : failure;
            }
            release(ballast);
            text(await(call));
            eventually(() -> client.poolStats(endpoint).isEmpty());
        }
        throw new AssertionError("five calls opened a connection with every descriptor taken");
    }

    private static void release(List<FileInputStream> ballast) throws IOException {
        for (FileInputStream file : ballast) {
            file.close();
        }
        ballast.clear();
    }

    private static HttpRequest get() {
        return HttpRequest.of(HttpMethod.GET, "/");
    }

    private static HttpRequest closing() {
        return HttpRequest.builder(HttpMethod.GET, "/")
                .header("connection", "close")
                .build();
    }

    private static void takeEveryFileDescriptor(List<FileInputStream> ballast) {
        for (int i = 0; i < 10_000; i++) {
            try {
                ballast.add(new FileInputStream("/dev/null"));
            } catch (FileNotFoundException e) {
                return; // Too many open files.
            }
        }
        throw new AssertionError("the open-files limit was not lowered");
    }

    private static long openFiles() throws IOException {
        try (Stream<Path> files = Files.list(OPEN_FILES)) {
            return files.count();
        }
    }

    /** The soft and hard limits, as {@code prlimit} prints them. */
    private static String[] openFilesLimit() throws IOException, InterruptedException {
        Process process = new ProcessBuilder(
                        PRLIMIT.toString(), "--pid", pid(), "--nofile", "--noheadings", "--raw", "--output=SOFT,HARD")
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes()).trim();
        assertThat(process.waitFor()).as(output).isZero();
        return output.split("\\s+");
    }

    private static void setOpenFilesLimit(String soft, String hard) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(PRLIMIT.toString(), "--pid", pid(), "--nofile=" + soft + ":" + hard)
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes()).trim();
        process.getInputStream().close();
        process.getOutputStream().close();
        assertThat(process.waitFor()).as(output).isZero();
    }

    private static String pid() {
        return Long.toString(ProcessHandle.current().pid());
    }
}
