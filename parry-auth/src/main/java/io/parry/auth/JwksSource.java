package io.parry.auth;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import io.parry.auth.internal.RemoteKeys;
import io.parry.client.HttpClient;
import java.net.URI;
import java.text.ParseException;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * Where a {@link JwtFilter} finds the public keys that sign tokens: a JSON Web Key Set (RFC 7517)
 * fetched from a URL with Parry's own {@link HttpClient}, or fixed keys.
 *
 * <pre>{@code
 * JwksSource keys = JwksSource.builder(URI.create("http://idp.internal:8080/.well-known/jwks.json"))
 *         .client(client)
 *         .build();
 * }</pre>
 *
 * <p>A fetched set is kept and used without any request waiting: it is fetched again in the
 * background once it is older than {@code refreshInterval} (default 5 minutes), and at once when a
 * token names a key id ({@code kid}) the set lacks, since that is how an issuer's key rotation shows.
 * Fetches are never closer together than {@code minRefreshInterval} (default 10 seconds), so a flood
 * of tokens with made-up key ids costs at most one fetch per interval; requests that arrive while a
 * fetch runs wait for it rather than starting another. A fetch that fails keeps the previous keys.
 * Only public keys are kept. Thread-safe; never blocks.
 */
public final class JwksSource {
    private final RemoteKeys keys;

    private JwksSource(RemoteKeys keys) {
        this.keys = keys;
    }

    /** A builder for a set fetched from this {@code http} URL. */
    public static Builder builder(URI url) {
        return new Builder(requireNonNull(url, "url"));
    }

    /**
     * Fixed keys from a JWK Set document, such as {@code {"keys":[...]}}; for tests and embedded
     * issuers.
     *
     * @throws IllegalArgumentException if the document is not a JWK Set
     */
    public static JwksSource ofJson(String jwks) {
        requireNonNull(jwks, "jwks");
        try {
            return new JwksSource(RemoteKeys.fixed(JWKSet.parse(jwks).toPublicJWKSet()));
        } catch (ParseException e) {
            throw new IllegalArgumentException("jwks: not a JWK Set (" + e.getMessage() + ")", e);
        }
    }

    /**
     * The key with this id; the only key of the set when {@code keyId} is {@code null} and the set has
     * one; completes with {@code null} when there is no such key. Completes on the thread that fetched
     * the set, or at once when it was known.
     */
    public CompletionStage<JWK> key(String keyId) {
        return keys.key(keyId);
    }

    /** Fetches the set now, unless a fetch ran within {@code minRefreshInterval}; completes when it is done. */
    public CompletionStage<Void> refresh() {
        return keys.refresh();
    }

    /** How many times the set was fetched, successfully or not. */
    public long fetches() {
        return keys.fetches();
    }

    @Override
    public String toString() {
        return "JwksSource[" + keys + "]";
    }

    /** Settings of a fetched key set. */
    public static final class Builder {
        private final URI url;
        private HttpClient client;
        private Duration refreshInterval = Duration.ofMinutes(5);
        private Duration minRefreshInterval = Duration.ofSeconds(10);
        private Duration timeout = Duration.ofSeconds(5);
        private int maxSize = 1 << 20;

        private Builder(URI url) {
            this.url = url;
        }

        /** The client that fetches the set; default a client of its own, made on first use. */
        public Builder client(HttpClient client) {
            this.client = requireNonNull(client, "client");
            return this;
        }

        /** How old a set may get before it is fetched again in the background; default 5 minutes. */
        public Builder refreshInterval(Duration interval) {
            this.refreshInterval = requireNonNull(interval, "interval");
            return this;
        }

        /** The shortest time between two fetches, whatever asks for them; default 10 seconds. */
        public Builder minRefreshInterval(Duration interval) {
            this.minRefreshInterval = requireNonNull(interval, "interval");
            return this;
        }

        /** How long a fetch may take, headers and body; default 5 seconds. */
        public Builder timeout(Duration timeout) {
            this.timeout = requireNonNull(timeout, "timeout");
            return this;
        }

        /** The largest set document read, in bytes; default 1 MiB. */
        public Builder maxSize(int bytes) {
            this.maxSize = bytes;
            return this;
        }

        /** The source; it fetches nothing until a token needs a key or {@link #refresh()} is called. */
        public JwksSource build() {
            if (!"http".equalsIgnoreCase(url.getScheme()) || url.getHost() == null) {
                throw new IllegalArgumentException("url: " + url + " (expected: an absolute http URL)");
            }
            positive("refreshInterval", refreshInterval);
            if (minRefreshInterval.isNegative()) {
                throw new IllegalArgumentException("minRefreshInterval: " + minRefreshInterval + " (expected: >= 0)");
            }
            positive("timeout", timeout);
            if (maxSize <= 0) {
                throw new IllegalArgumentException("maxSize: " + maxSize + " (expected: > 0)");
            }
            return new JwksSource(
                    RemoteKeys.fetched(url, client, refreshInterval, minRefreshInterval, timeout, maxSize));
        }

        private static void positive(String name, Duration value) {
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
            }
        }
    }
}
