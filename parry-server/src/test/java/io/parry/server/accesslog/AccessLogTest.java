package io.parry.server.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.server.RequestLog;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class AccessLogTest {
    private static final RequestLog GET = Logs.get().build();

    @Test
    void writesALinePerRequestThroughTheSink() throws InterruptedException {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        try (AccessLog accessLog = AccessLog.builder().sink(lines::add).build()) {
            accessLog.requestEnded(GET);

            assertThat(lines.poll(5, TimeUnit.SECONDS)).startsWith("{\"time\":\"2025-01-31T12:00:00.123Z\"");
        }
    }

    @Test
    void usesTheFormatItWasGiven() throws InterruptedException {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        try (AccessLog accessLog = AccessLog.builder()
                .format(AccessLogFormat.combined())
                .sink(lines::add)
                .build()) {
            accessLog.requestEnded(GET);

            assertThat(lines.poll(5, TimeUnit.SECONDS)).startsWith("10.0.0.7 - - [31/Jan/2025:12:00:00 +0000]");
        }
    }

    @Test
    void dropsAndCountsLinesWhenTheQueueIsFull() throws InterruptedException {
        BlockedSink sink = new BlockedSink();
        AccessLog accessLog = AccessLog.builder().queueCapacity(4).sink(sink).build();
        try {
            accessLog.requestEnded(GET);
            assertThat(sink.entered.await(5, TimeUnit.SECONDS)).isTrue();

            for (int i = 0; i < 10; i++) {
                accessLog.requestEnded(GET); // The writer holds the first: four wait, six are dropped.
            }

            assertThat(accessLog.dropped()).isEqualTo(6);
        } finally {
            sink.release.countDown();
            accessLog.close();
        }
        assertThat(sink.lines).hasSize(5);
    }

    @Test
    void writesWhatIsQueuedWhenClosedAndDropsWhatComesAfter() throws InterruptedException {
        BlockedSink sink = new BlockedSink();
        AccessLog accessLog = AccessLog.builder().sink(sink).build();
        accessLog.requestEnded(GET);
        assertThat(sink.entered.await(5, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < 3; i++) {
            accessLog.requestEnded(GET);
        }

        sink.release.countDown();
        accessLog.close();
        accessLog.requestEnded(GET);

        assertThat(sink.lines).hasSize(4);
        assertThat(accessLog.dropped()).isEqualTo(1);
    }

    @Test
    void keepsWritingAfterTheSinkFails() throws InterruptedException {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        boolean[] failedOnce = {false};
        Consumer<String> flaky = line -> {
            if (!failedOnce[0]) {
                failedOnce[0] = true;
                throw new IllegalStateException("disk full");
            }
            lines.add(line);
        };
        try (AccessLog accessLog = AccessLog.builder().sink(flaky).build()) {
            accessLog.requestEnded(GET);
            accessLog.requestEnded(Logs.get().requestId("second").build());

            assertThat(lines.poll(5, TimeUnit.SECONDS)).contains("\"requestId\":\"second\"");
        }
    }

    @Test
    void rejectsAQueueWithoutRoom() {
        assertThatThrownBy(() -> AccessLog.builder().queueCapacity(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("queueCapacity: 0 (expected: > 0 and <= 1073741824)");
    }

    /** Holds the writer thread on its first line until released. */
    private static final class BlockedSink implements Consumer<String> {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<String> lines = new CopyOnWriteArrayList<>();

        @Override
        public void accept(String line) {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            lines.add(line);
        }
    }
}
