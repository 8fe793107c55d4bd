package io.parry.gateway.internal.reload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The configuration file's changes, seen whatever else its directory holds. */
class ConfigFileWatcherTest {
    @TempDir
    Path dir;

    @Test
    void seesTheFileChangeWhileALogBesideItIsWrittenWithoutPause() throws Exception {
        Path file = Files.writeString(dir.resolve("gateway.yaml"), "version: 1\n");
        Path log = dir.resolve("gateway.log");
        CountDownLatch changed = new CountDownLatch(1);
        AtomicBoolean logging = new AtomicBoolean(true);
        CountDownLatch logged = new CountDownLatch(20);
        Thread logger = new Thread(() -> appendUntilStopped(log, logging, logged));
        // A quiet period far longer than the log's pauses, even on a loaded machine: only the file's own quiet counts.
        try (ConfigFileWatcher watcher = ConfigFileWatcher.start(file, changed::countDown, Duration.ofSeconds(1))) {
            logger.start();
            assertThat(logged.await(10, TimeUnit.SECONDS)).isTrue();
            Files.writeString(file, "version: 2\n");

            assertThat(changed.await(8, TimeUnit.SECONDS))
                    .as("the change seen while the log is written every few milliseconds")
                    .isTrue();
        } finally {
            logging.set(false);
            logger.join();
        }
    }

    @Test
    void seesAConfigMapReplaceItsFilesBySwappingItsDataLink() throws Exception {
        Files.createDirectory(dir.resolve("..v1"));
        Files.writeString(dir.resolve("..v1/gateway.yaml"), "version: 1\n");
        Files.createSymbolicLink(dir.resolve("..data"), Path.of("..v1"));
        Path file = Files.createSymbolicLink(dir.resolve("gateway.yaml"), Path.of("..data/gateway.yaml"));
        CountDownLatch changed = new CountDownLatch(1);
        try (ConfigFileWatcher watcher = ConfigFileWatcher.start(file, changed::countDown)) {
            // As the kubelet's AtomicWriter does: a new directory, a new link to it, renamed over the old link.
            Files.createDirectory(dir.resolve("..v2"));
            Files.writeString(dir.resolve("..v2/gateway.yaml"), "version: 2\n");
            Files.createSymbolicLink(dir.resolve("..data_tmp"), Path.of("..v2"));
            Files.move(dir.resolve("..data_tmp"), dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);

            assertThat(changed.await(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static void appendUntilStopped(Path log, AtomicBoolean logging, CountDownLatch logged) {
        byte[] line = "{\"status\":503}\n".getBytes(StandardCharsets.US_ASCII);
        try {
            while (logging.get()) {
                Files.write(log, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                logged.countDown();
                // A line every few milliseconds, as an access log under load writes them.
                TimeUnit.MILLISECONDS.sleep(5);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
