package io.parry.gateway.internal.reload;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls back when the configuration file's content changes. It watches the file's directory rather
 * than the file, so an editor or a Kubernetes ConfigMap that replaces the file by a rename is seen;
 * waits until the file has been quiet for 100 ms, so a write in several steps gives one call; and
 * calls only when the bytes differ from those it saw last. Runs on a daemon thread of its own.
 *
 * <p>Only events that name the file, or an entry whose name starts with {@code ..} (the links a
 * ConfigMap volume swaps to replace its files at once), count: a log written beside the file, as
 * {@code java -jar parry-gateway.jar gateway.yaml > gateway.log} does, would otherwise keep the
 * directory from ever being quiet, and no change to the file would be seen while traffic lasts.
 */
public final class ConfigFileWatcher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ConfigFileWatcher.class);
    private static final Duration QUIET = Duration.ofMillis(100);

    private final Path file;
    private final Path name;
    private final Runnable onChange;
    private final long quietNanos;
    private final WatchService watchService;
    private final Thread thread;
    private byte[] lastContent;

    private ConfigFileWatcher(Path file, Runnable onChange, Duration quiet, WatchService watchService) {
        this.file = file;
        this.name = file.getFileName();
        this.onChange = onChange;
        this.quietNanos = quiet.toNanos();
        this.watchService = watchService;
        this.lastContent = read(file);
        this.thread = new Thread(this::watch, "parry-gateway-watch");
        thread.setDaemon(true);
    }

    /**
     * Starts watching the file.
     *
     * @throws IOException if its directory cannot be watched
     */
    public static ConfigFileWatcher start(Path file, Runnable onChange) throws IOException {
        return start(file, onChange, QUIET);
    }

    /** Starts watching the file, calling back once no event has touched it for {@code quiet}. */
    static ConfigFileWatcher start(Path file, Runnable onChange, Duration quiet) throws IOException {
        Path absolute = file.toAbsolutePath();
        WatchService watchService = absolute.getFileSystem().newWatchService();
        try {
            absolute.getParent().register(watchService, ENTRY_CREATE, ENTRY_MODIFY, ENTRY_DELETE);
        } catch (IOException | RuntimeException e) {
            watchService.close();
            throw e;
        }
        ConfigFileWatcher watcher = new ConfigFileWatcher(absolute, onChange, quiet, watchService);
        watcher.thread.start();
        return watcher;
    }

    /** Stops watching. */
    @Override
    public void close() {
        try {
            watchService.close();
        } catch (IOException e) {
            log.debug("Closing the watch service failed", e);
        }
        thread.interrupt();
    }

    private void watch() {
        try {
            while (true) {
                WatchKey key = watchService.take();
                boolean touched = touchesFile(key);
                if (!key.reset()) {
                    log.warn("Stopped watching {}: its directory is gone", file);
                    return;
                }
                if (touched) {
                    awaitQuiet();
                    byte[] content = read(file);
                    if (content != null && !Arrays.equals(content, lastContent)) {
                        lastContent = content;
                        onChange.run();
                    }
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException stopped) {
            // close() was called.
        }
    }

    /** Returns once no event has touched the file for {@link #quietNanos}. */
    private void awaitQuiet() throws InterruptedException {
        long quietFrom = System.nanoTime() + quietNanos;
        for (long left = quietNanos; left > 0; left = quietFrom - System.nanoTime()) {
            WatchKey more = watchService.poll(left, TimeUnit.NANOSECONDS);
            if (more != null) {
                if (touchesFile(more)) {
                    quietFrom = System.nanoTime() + quietNanos;
                }
                more.reset();
            }
        }
    }

    /** Takes the key's events: whether one of them may have changed the file. */
    private boolean touchesFile(WatchKey key) {
        boolean touched = false;
        for (WatchEvent<?> event : key.pollEvents()) {
            touched |= event.kind() == OVERFLOW
                    || event.context() instanceof Path entry
                            && (entry.equals(name) || entry.toString().startsWith(".."));
        }
        return touched;
    }

    /** The file's bytes, or null while it is missing, as it is for a moment during some replacements. */
    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            return null;
        }
    }
}
