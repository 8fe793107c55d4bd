package io.parry.server.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.RequestLog;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** An access log written to a stream: lines in batches, each batch in one write, lines kept whole. */
class AccessLogOutputTest {
    private static final RequestLog GET = Logs.get().build();

    @Test
    void writesTheLinesQueuedMeanwhileWithOneWriteAndOneFlush() throws InterruptedException {
        RecordingStream out = new RecordingStream();
        AccessLog accessLog = AccessLog.builder().output(out).build();
        try {
            accessLog.requestEnded(GET);
            assertThat(out.entered.await(5, TimeUnit.SECONDS)).isTrue();

            for (int i = 0; i < 100; i++) {
                accessLog.requestEnded(GET); // The writer is held in the first write: these make one batch.
            }
        } finally {
            out.release.countDown();
            accessLog.close();
        }

        assertThat(out.writes).containsExactly(1, 100);
        assertThat(out.flushes).hasValue(2);
        String[] lines = out.text().split("\n", -1);
        assertThat(lines).hasSize(102);
        assertThat(lines[101]).isEmpty();
        assertThat(lines[100]).isEqualTo(Logs.format(AccessLogFormat.json(), GET));
        assertThat(accessLog.dropped()).isZero();
    }

    @Test
    void keepsLinesWholeBetweenWhatOtherThreadsPrintToTheSamePrintStream() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream console = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        AtomicBoolean done = new AtomicBoolean();
        Thread application = new Thread(() -> {
            while (!done.get()) {
                console.println("12:00:00.000 INFO  [main] app - something happened");
            }
        });
        application.start();
        AccessLog accessLog =
                AccessLog.builder().queueCapacity(32 * 1024).output(console).build();
        try (accessLog) {
            for (int i = 0; i < 20_000; i++) {
                accessLog.requestEnded(GET);
            }
        } finally {
            done.set(true);
            application.join();
        }

        String expected = Logs.format(AccessLogFormat.json(), GET);
        List<String> accessLines = bytes.toString(StandardCharsets.UTF_8)
                .lines()
                .filter(line -> !line.equals("12:00:00.000 INFO  [main] app - something happened"))
                .toList();
        assertThat(accessLog.dropped()).isZero();
        assertThat(accessLines).hasSize(20_000).containsOnly(expected);
    }

    @Test
    void encodesLinesAsUtf8() throws InterruptedException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        AccessLogFormat format = (log, line) -> line.append("é € \uD83D\uDE00 lone \uD800 surrogate");
        try (AccessLog accessLog =
                AccessLog.builder().format(format).output(bytes).build()) {
            accessLog.requestEnded(GET);
        }

        assertThat(bytes.toByteArray())
                .isEqualTo("é € \uD83D\uDE00 lone ? surrogate\n".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void writesALineLongerThanTheBufferWhole() throws InterruptedException {
        RecordingStream out = new RecordingStream();
        out.release.countDown();
        String huge = "x".repeat(BatchedOutput.BUFFER_SIZE * 2);
        AccessLogFormat format = (log, line) -> line.append(log.status() == 200 ? huge : "short");
        try (AccessLog accessLog =
                AccessLog.builder().format(format).output(out).build()) {
            accessLog.requestEnded(Logs.get().status(201).build());
            accessLog.requestEnded(GET);
            accessLog.requestEnded(Logs.get().status(201).build());
        }

        assertThat(out.text()).isEqualTo("short\n" + huge + "\nshort\n");
    }

    /** Records the number of lines of each write and the flushes; the first write waits for a release. */
    private static final class RecordingStream extends OutputStream {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<Integer> writes = new CopyOnWriteArrayList<>();
        final AtomicInteger flushes = new AtomicInteger();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public void write(int b) {
            throw new AssertionError("the access log writes arrays");
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            entered.countDown();
            try {
                release.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            bytes.write(b, off, len);
            int lines = 0;
            for (int i = off; i < off + len; i++) {
                lines += b[i] == '\n' ? 1 : 0;
            }
            writes.add(lines);
        }

        @Override
        public void flush() {
            flushes.incrementAndGet();
        }

        synchronized String text() {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }
}
