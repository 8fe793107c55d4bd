package io.parry.gateway;

import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link GatewayMain} in a JVM of its own, on the test's class path, with its output collected line by
 * line, so tests can send it real signals and see its exit status.
 */
final class ChildGateway implements AutoCloseable {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final Pattern LISTENING =
            Pattern.compile("Gateway listening on https?://[^:]+:(\\d+), admin on http://[^:]+:(\\d+)");

    private final Process process;
    private final List<String> lines = new ArrayList<>();
    private final Thread reader;

    private ChildGateway(Process process) {
        this.process = process;
        this.reader = new Thread(this::read, "child-gateway-output");
        reader.setDaemon(true);
        reader.start();
    }

    static ChildGateway start(Map<String, String> env, String... args) {
        return start(List.of(), env, args);
    }

    /** Starts the gateway in a JVM run with these options, such as {@code -Xmx64m}, before the class path. */
    static ChildGateway start(List<String> jvmOptions, Map<String, String> env, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(GatewayMain.class.getName());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        try {
            return new ChildGateway(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits for the line saying where the gateway listens: its port and its admin port. */
    int[] awaitPorts() {
        Matcher matcher = LISTENING.matcher(awaitLine("Gateway listening on"));
        if (!matcher.find()) {
            fail("no ports in the start-up line");
        }
        return new int[] {Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2))};
    }

    /** Waits for a line of output holding the text and returns it. */
    String awaitLine(String text) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        synchronized (lines) {
            while (true) {
                for (String line : lines) {
                    if (line.contains(text)) {
                        return line;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    fail("no line with \"" + text + "\" within " + DEADLINE + "; output:\n" + String.join("\n", lines));
                }
                try {
                    lines.wait(TimeUnit.NANOSECONDS.toMillis(left) + 1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    /** Sends a signal, such as {@code HUP}, with {@code kill}. */
    void signal(String name) throws Exception {
        int status = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                .inheritIO()
                .start()
                .waitFor();
        if (status != 0) {
            fail("kill -" + name + " failed with status " + status);
        }
    }

    /** Waits for the process to exit and its output to be read, and returns its status. */
    int awaitExit() throws InterruptedException {
        if (!process.waitFor(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
            fail("the gateway did not exit within " + DEADLINE + "; output:\n" + output());
        }
        reader.join(DEADLINE.toMillis());
        return process.exitValue();
    }

    String output() {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    private void read() {
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                }
            }
        } catch (IOException e) {
            // The process ended.
        }
    }
}
