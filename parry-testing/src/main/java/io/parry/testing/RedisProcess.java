package io.parry.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A real {@code redis-server} for a test, on a free port of 127.0.0.1, without persistence; stopped (and
 * killed, to test an outage) by its PID, and ended with this JVM however the JVM ends. A test that needs
 * one is skipped when redis-server is not installed.
 *
 * <pre>{@code
 * try (RedisProcess redis = RedisProcess.start()) {
 *     RedisRateLimitStore store = RedisRateLimitStore.connect(redis.uri());
 *     // ...
 *     redis.kill();          // an outage
 *     redis.startAgain();    // Redis is back, empty
 * }
 * }</pre>
 */
public final class RedisProcess implements AutoCloseable {
    /**
     * Runs redis-server (arguments: the log file, then the server's) in the background, prints its PID,
     * then reads its own standard input, a pipe from this JVM, until it closes. The kernel closes the pipe
     * when the JVM ends, however it ends (SIGKILL included, when no shutdown hook runs), and the guard then
     * stops the server: a test's Redis never outlives its JVM.
     */
    private static final String GUARD =
            "log=$1; shift; redis-server \"$@\" >>\"$log\" 2>&1 & server=$!; echo $server; cat >/dev/null; kill $server 2>/dev/null";

    private final int port;
    private final Path dir;
    /** The shell that started the running server and ends it when this JVM's pipe to it closes. */
    private Process guard;

    private ProcessHandle server;

    private RedisProcess(int port, Path dir) {
        this.port = port;
        this.dir = dir;
    }

    /** Starts redis-server, skipping the test if it is not installed. */
    public static RedisProcess start() throws IOException, InterruptedException {
        assumeTrue(installed(), "redis-server is not installed (apt-get install redis-server, or .ci/tools.sh)");
        RedisProcess redis = new RedisProcess(freePort(), Files.createTempDirectory("parry-redis"));
        redis.startAgain();
        return redis;
    }

    /** The port it listens on, the same after {@link #startAgain()}. */
    public int port() {
        return port;
    }

    /** Its URI, such as {@code redis://127.0.0.1:6379}. */
    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** The process id of the running server. */
    public long pid() {
        return server.pid();
    }

    /** Kills the server at once (SIGKILL by its PID), as a crash would. */
    public void kill() throws InterruptedException {
        server.destroyForcibly();
        awaitExit(server);
        endGuard();
    }

    /** Starts the server again on the same port, with nothing in memory. */
    public void startAgain() throws IOException, InterruptedException {
        Path log = dir.resolve("redis.log");
        guard = new ProcessBuilder(
                        "sh",
                        "-c",
                        GUARD,
                        "sh",
                        log.toString(),
                        "--port",
                        Integer.toString(port),
                        "--bind",
                        "127.0.0.1",
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--enable-debug-command",
                        "yes",
                        "--dir",
                        dir.toString())
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        String pid =
                new BufferedReader(new InputStreamReader(guard.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        if (pid == null) {
            throw new IllegalStateException("redis-server did not start: " + Files.readString(log));
        }
        server = ProcessHandle.of(Long.parseLong(pid.strip()))
                .orElseThrow(() -> new IllegalStateException("redis-server exited at once: " + readQuietly(log)));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!"+PONG".equals(command("PING"))) {
            if (System.nanoTime() > deadline || !server.isAlive()) {
                throw new IllegalStateException("redis-server did not start: " + Files.readString(log));
            }
            Thread.sleep(10);
        }
    }

    /** Sends one inline command and returns the first line of the reply, or null if Redis is not there. */
    public String command(String line) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder reply = new StringBuilder();
            for (int c = in.read(); c != -1 && c != '\r'; c = in.read()) {
                reply.append((char) c);
            }
            return reply.toString();
        } catch (IOException e) {
            return null;
        }
    }

    /** Stops the server (SIGTERM by its PID) and waits for it to exit. */
    @Override
    public void close() throws InterruptedException {
        if (server != null && server.isAlive()) {
            server.destroy();
            awaitExit(server);
        }
        endGuard();
    }

    /** Closes the guard's standard input, which it waits on, and waits for it to exit. */
    private void endGuard() throws InterruptedException {
        if (guard != null) {
            try {
                guard.getOutputStream().close();
            } catch (IOException alreadyGone) {
                // The guard has exited: nothing to end.
            }
            guard.waitFor(10, TimeUnit.SECONDS);
            guard = null;
        }
    }

    /** Waits up to ten seconds for a process that is not this JVM's child (the guard's) to exit. */
    private static void awaitExit(ProcessHandle process) throws InterruptedException {
        try {
            process.onExit().get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("redis-server " + process.pid() + " did not exit", e);
        }
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static boolean installed() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, "redis-server"))) {
                return true;
            }
        }
        return false;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
