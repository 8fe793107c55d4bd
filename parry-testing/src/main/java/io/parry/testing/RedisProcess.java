package io.parry.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real {@code redis-server} for a test, on a free port of 127.0.0.1, without persistence; stopped (and
 * killed, to test an outage) by its PID. A test that needs one is skipped when redis-server is not
 * installed.
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
    private final int port;
    private final Path dir;
    private Process process;

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
        return process.pid();
    }

    /** Kills the server at once (SIGKILL by its PID), as a crash would. */
    public void kill() throws InterruptedException {
        ProcessHandle.of(process.pid()).ifPresent(ProcessHandle::destroyForcibly);
        process.waitFor();
    }

    /** Starts the server again on the same port, with nothing in memory. */
    public void startAgain() throws IOException, InterruptedException {
        process = new ProcessBuilder(
                        "redis-server",
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
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis.log").toFile())
                .start();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!"+PONG".equals(command("PING"))) {
            if (System.nanoTime() > deadline || !process.isAlive()) {
                throw new IllegalStateException(
                        "redis-server did not start: " + Files.readString(dir.resolve("redis.log")));
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
        if (process != null && process.isAlive()) {
            ProcessHandle.of(process.pid()).ifPresent(ProcessHandle::destroy);
            process.waitFor();
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
