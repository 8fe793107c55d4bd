package io.parry.gateway.internal.reload;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls back when the configuration file's content changes. It watches the file's directory rather
 * than the file, so an editor or a Kubernetes ConfigMap that replaces the file by a rename is seen;
 * waits until the directory has been quiet for 100 ms, so a write in several steps gives one call;
 * and calls only when the bytes differ from those it saw last. Runs on a daemon thread of its own.
 */
public final class ConfigFileWatcher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ConfigFileWatcher.class);
    private static final long QUIET_MILLIS = 100;

    private final Path file;
    private final Runnable onChange;
    private final WatchService watchService;
    private final Thread thread;
    private byte[] lastContent;

    private ConfigFileWatcher(Path file, Runnable onChange, WatchService watchService) {
        this.file = file;
        this.onChange = onChange;
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
        Path absolute = file.toAbsolutePath();
        WatchService watchService = absolute.getFileSystem().newWatchService();
        try {
            absolute.getParent().register(watchService, ENTRY_CREATE, ENTRY_MODIFY, ENTRY_DELETE);
        } catch (IOException | RuntimeException e) {
            watchService.close();
            throw e;
        }
        ConfigFileWatcher watcher = new ConfigFileWatcher(absolute, onChange, watchService);
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
                if (!drain(watchService.take())) {
                    log.warn("Stopped watching {}: its directory is gone", file);
                    return;
                }
                WatchKey more;
                while ((more = watchService.poll(QUIET_MILLIS, TimeUnit.MILLISECONDS)) != null) {
                    drain(more);
                }
                byte[] content = read(file);
                if (content != null && !Arrays.equals(content, lastContent)) {
                    lastContent = content;
                    onChange.run();
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException stopped) {
            // close() was called.
        }
    }

    private static boolean drain(WatchKey key) {
        key.pollEvents();
        return key.reset();
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
