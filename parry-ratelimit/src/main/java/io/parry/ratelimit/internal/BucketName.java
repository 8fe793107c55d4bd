package io.parry.ratelimit.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * A bucket's name as a limiter stores it: the key itself when short, else a digest of it. A key may be
 * a header value the client chose, up to the server's header limit (kilobytes): kept as it came, a
 * flood of distinct long values would cost each bucket that much (100,000 buckets of 8 KB are 800 MB
 * of heap, or of Redis memory), while a digest costs {@value #MAX_LENGTH} characters at most.
 */
public final class BucketName {
    /** The longest key kept as it is; longer ones become {@code #} and a SHA-256, 44 characters. */
    public static final int MAX_LENGTH = 64;

    private BucketName() {}

    /** The key, or its digest when longer than {@value #MAX_LENGTH} characters. */
    public static String of(String key) {
        if (key.length() <= MAX_LENGTH) {
            return key;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            // '#' never starts an address and marks the name as a digest, not a value that happens to look like one.
            return "#" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
