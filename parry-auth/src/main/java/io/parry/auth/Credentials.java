package io.parry.auth;

import static java.util.Objects.requireNonNull;

import io.parry.auth.internal.SecretHash;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Named secrets stored as hashes, for {@link ApiKeyFilter} (a name per key) and {@link
 * BasicAuthFilter} (user names): given in code or read from a file that is read again when it
 * changes.
 *
 * <p>A hash is bcrypt ({@code $2b$}, {@code $2y$}, {@code $2a$}: what {@code htpasswd -B} writes),
 * Argon2id in the PHC format ({@code $argon2id$v=19$m=...}), or, for randomly generated API keys
 * only, {@code sha256:<hex>} (a key of 128 random bits needs no slow hash, and a SHA-256 lookup
 * spares the worker). A file holds one {@code name:hash} a line, {@code #} comments and blank lines
 * allowed, as an {@code htpasswd} file does. Thread-safe.
 */
public final class Credentials {
    private static final Logger log = LoggerFactory.getLogger("io.parry.auth");
    private static final long FILE_CHECK_NANOS = 1_000_000_000L;

    private final Path file;
    private volatile Map<String, SecretHash> hashes;
    private volatile long generation;
    private volatile FileTime modified;
    private volatile long checkedAtNanos;

    private Credentials(Path file, Map<String, SecretHash> hashes, FileTime modified) {
        this.file = file;
        this.hashes = hashes;
        this.modified = modified;
        this.checkedAtNanos = System.nanoTime();
    }

    /**
     * Fixed credentials, name to hash.
     *
     * @throws IllegalArgumentException naming the entry whose hash is not one of the forms above
     */
    public static Credentials of(Map<String, String> nameToHash) {
        return new Credentials(null, parse(nameToHash, "credentials"), null);
    }

    /**
     * Credentials read from a file now and again whenever it changed, checked at most once a second,
     * by the worker that checks a secret (never an event loop). A file that became unreadable or
     * invalid keeps the previous credentials and is logged at WARN.
     *
     * @throws UncheckedIOException if the file cannot be read now
     * @throws IllegalArgumentException naming the line that is wrong
     */
    public static Credentials fromFile(Path file) {
        requireNonNull(file, "file");
        try {
            FileTime modified = Files.getLastModifiedTime(file);
            return new Credentials(file, read(file), modified);
        } catch (IOException e) {
            throw new UncheckedIOException("credentials file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The names known now. */
    public List<String> names() {
        return List.copyOf(hashes.keySet());
    }

    /** The hashes now, name to hash; for this module's filters. */
    Map<String, SecretHash> hashes() {
        return hashes;
    }

    /** Changes whenever the credentials changed, so that cached verdicts about older ones are dropped. */
    long generation() {
        return generation;
    }

    /** Reads the file again if it changed since the last look, at most once a second; call it off the event loop. */
    void reloadIfChanged() {
        long now = System.nanoTime();
        if (file == null || now - checkedAtNanos < FILE_CHECK_NANOS) {
            return;
        }
        checkedAtNanos = now;
        try {
            FileTime current = Files.getLastModifiedTime(file);
            if (current.equals(modified)) {
                return;
            }
            Map<String, SecretHash> read = read(file);
            hashes = read;
            modified = current;
            generation++;
            log.info("Credentials: read {} entries from {}", read.size(), file);
        } catch (IOException | RuntimeException e) {
            log.warn("Credentials: keeping the previous entries, {} could not be read: {}", file, e.getMessage());
        }
    }

    private static Map<String, SecretHash> read(Path file) throws IOException {
        Map<String, String> entries = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": expected name:hash");
            }
            entries.put(line.substring(0, colon), line.substring(colon + 1));
        }
        return parse(entries, file.toString());
    }

    private static Map<String, SecretHash> parse(Map<String, String> nameToHash, String source) {
        Map<String, SecretHash> parsed = new LinkedHashMap<>();
        nameToHash.forEach((name, hash) -> {
            try {
                parsed.put(name, SecretHash.parse(hash));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(source + ": " + name + ": " + e.getMessage(), e);
            }
        });
        return Collections.unmodifiableMap(parsed);
    }

    @Override
    public String toString() {
        return "Credentials[" + (file == null ? hashes.size() + " entries" : file.toString()) + "]";
    }
}
