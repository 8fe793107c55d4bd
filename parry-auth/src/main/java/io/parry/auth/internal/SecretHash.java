package io.parry.auth.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.bouncycastle.crypto.params.Argon2Parameters;

/**
 * A stored secret's hash, in one of three forms: bcrypt ({@code $2a$}, {@code $2b$}, {@code $2y$},
 * as {@code htpasswd -B} writes), Argon2id in the PHC string format ({@code $argon2id$v=19$m=...,t=...,p=...$salt$hash},
 * as the {@code argon2} tool writes) or, for high-entropy API keys only, {@code sha256:<hex>}. bcrypt
 * and Argon2 are slow on purpose: check them on a worker, never on an event loop.
 */
public abstract sealed class SecretHash {

    private SecretHash() {}

    /**
     * Parses a stored hash.
     *
     * @throws IllegalArgumentException saying what forms are expected
     */
    public static SecretHash parse(String text) {
        if (text.startsWith("$2a$") || text.startsWith("$2b$") || text.startsWith("$2y$")) {
            if (text.length() != 60) {
                throw new IllegalArgumentException("a bcrypt hash has 60 characters, this one " + text.length());
            }
            return new Bcrypt(text);
        }
        if (text.startsWith("$argon2id$")) {
            return Argon2.fromPhc(text);
        }
        if (text.startsWith("sha256:")) {
            String hex = text.substring("sha256:".length());
            if (hex.length() != 64) {
                throw new IllegalArgumentException("a sha256 hash has 64 hex digits after sha256:");
            }
            try {
                return new Sha256(HexFormat.of().parseHex(hex));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("a sha256 hash has 64 hex digits after sha256:");
            }
        }
        throw new IllegalArgumentException(
                "expected a bcrypt ($2b$...), an Argon2id ($argon2id$...) or a sha256:<hex> hash");
    }

    /** Whether the secret has this hash; compares in constant time. */
    public abstract boolean matches(String secret);

    /** Whether checking costs nothing worth a worker (a SHA-256). */
    public boolean isFast() {
        return this instanceof Sha256;
    }

    /** The SHA-256 digest of the text, hex, as {@code sha256:} hashes hold it. */
    public static String sha256Hex(String text) {
        return HexFormat.of().formatHex(sha256(text));
    }

    /** A key for a cache of verdicts: the SHA-256 of the text, so the cache never holds a secret. */
    public static String cacheKey(String text) {
        return Base64.getEncoder().encodeToString(sha256(text));
    }

    static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    static final class Bcrypt extends SecretHash {
        private final String hash;

        Bcrypt(String hash) {
            this.hash = hash;
            int cost = Character.digit(hash.charAt(4), 10) * 10 + Character.digit(hash.charAt(5), 10);
            if (hash.charAt(6) != '$' || cost < 4 || cost > 31) {
                throw new IllegalArgumentException("a bcrypt hash has a cost from 04 to 31: $2b$10$...");
            }
        }

        @Override
        public boolean matches(String secret) {
            return OpenBSDBCrypt.checkPassword(hash, secret.toCharArray());
        }
    }

    static final class Argon2 extends SecretHash {
        private final Argon2Parameters parameters;
        private final byte[] hash;

        private Argon2(Argon2Parameters parameters, byte[] hash) {
            this.parameters = parameters;
            this.hash = hash;
        }

        static Argon2 fromPhc(String text) {
            String[] parts = text.split("\\$");
            String expected =
                    "expected $argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash> (base64 without padding)";
            if (parts.length != 6 || !parts[2].equals("v=19")) {
                throw new IllegalArgumentException(expected);
            }
            try {
                int memory = 0;
                int passes = 0;
                int lanes = 0;
                for (String setting : parts[3].split(",")) {
                    int value = Integer.parseInt(setting.substring(2));
                    switch (setting.substring(0, 2)) {
                        case "m=" -> memory = value;
                        case "t=" -> passes = value;
                        case "p=" -> lanes = value;
                        default -> throw new IllegalArgumentException(expected);
                    }
                }
                if (memory <= 0 || passes <= 0 || lanes <= 0) {
                    throw new IllegalArgumentException(expected);
                }
                Base64.Decoder base64 = Base64.getDecoder();
                Argon2Parameters parameters = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                        .withVersion(Argon2Parameters.ARGON2_VERSION_13)
                        .withMemoryAsKB(memory)
                        .withIterations(passes)
                        .withParallelism(lanes)
                        .withSalt(base64.decode(parts[4]))
                        .build();
                return new Argon2(parameters, base64.decode(parts[5]));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(expected);
            }
        }

        @Override
        public boolean matches(String secret) {
            Argon2BytesGenerator generator = new Argon2BytesGenerator();
            generator.init(parameters);
            byte[] computed = new byte[hash.length];
            generator.generateBytes(secret.getBytes(StandardCharsets.UTF_8), computed);
            return MessageDigest.isEqual(computed, hash);
        }
    }

    static final class Sha256 extends SecretHash {
        private final byte[] digest;

        Sha256(byte[] digest) {
            this.digest = digest;
        }

        @Override
        public boolean matches(String secret) {
            return MessageDigest.isEqual(sha256(secret), digest);
        }
    }
}
