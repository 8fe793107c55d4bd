package io.parry.auth.internal;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.parry.auth.Identity;
import io.parry.auth.JwksSource;
import java.text.ParseException;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Verifies signed JWTs against a key source: the cheap checks first (size, shape, algorithm, issuer,
 * audience, time), the signature last, and verified tokens (and tokens whose signature failed)
 * remembered in bounded caches so that a repeated token costs one lookup. The two are kept apart: a
 * flood of distinct forged tokens, each remembered as refused, pushes out only other refused ones,
 * never the verified tokens of other clients, whose requests would then each cost a verification.
 */
public final class TokenVerifier {
    /** How long a token whose signature failed is refused from the cache. */
    private static final long BAD_SIGNATURE_MILLIS = 60_000;

    private final JwksSource keys;
    private final Set<JWSAlgorithm> algorithms;
    private final String issuer;
    private final Set<String> audiences;
    private final long skewMillis;
    private final int maxTokenLength;
    private final BoundedCache<String, Outcome> tokens;
    private final BoundedCache<String, Outcome> refused;
    private final BoundedCache<JWK, JWSVerifier> verifiers = new BoundedCache<>(64);

    public TokenVerifier(
            JwksSource keys,
            Set<JWSAlgorithm> algorithms,
            String issuer,
            Set<String> audiences,
            long skewMillis,
            int maxTokenLength,
            int maxCachedTokens) {
        this.keys = keys;
        this.algorithms = algorithms;
        this.issuer = issuer;
        this.audiences = audiences;
        this.skewMillis = skewMillis;
        this.maxTokenLength = maxTokenLength;
        this.tokens = new BoundedCache<>(maxCachedTokens);
        this.refused = new BoundedCache<>(maxCachedTokens);
    }

    /** What a token turned out to be. */
    public sealed interface Outcome permits Verified, Invalid {}

    /** A verified token, valid until {@code untilMillis} (its expiry plus the clock skew). */
    public record Verified(Identity identity, long untilMillis) implements Outcome {}

    /** A refused token and why, in words fit for {@code error_description}. */
    public record Invalid(String description, long untilMillis) implements Outcome {}

    /** Verifies the token; completes at once unless its key must be fetched. */
    public CompletionStage<Outcome> verify(String token) {
        long now = System.currentTimeMillis();
        if (token.length() > maxTokenLength || !hasThreeParts(token)) {
            return done(invalid("malformed token"));
        }
        Outcome cached = tokens.get(token);
        if (cached == null) {
            cached = refused.get(token);
        }
        if (cached != null) {
            long until = cached instanceof Verified v ? v.untilMillis() : ((Invalid) cached).untilMillis();
            if (now < until) {
                return done(cached);
            }
            if (cached instanceof Verified) {
                tokens.remove(token);
                return done(invalid("token expired"));
            }
            refused.remove(token);
        }
        SignedJWT jwt;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(token);
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException | RuntimeException e) {
            return done(invalid("malformed token"));
        }
        JWSHeader header = jwt.getHeader();
        if (!algorithms.contains(header.getAlgorithm())) {
            return done(invalid("algorithm not allowed"));
        }
        // RFC 7515, section 4.1.11: no extension is understood here, so any critical one refuses the token.
        if (header.getCriticalParams() != null && !header.getCriticalParams().isEmpty()) {
            return done(invalid("unsupported critical header parameter"));
        }
        Invalid refused = checkClaims(claims, now);
        if (refused != null) {
            return done(refused);
        }
        return keys.key(header.getKeyID()).thenApply(key -> verifySignature(token, jwt, claims, key));
    }

    private Outcome verifySignature(String token, SignedJWT jwt, JWTClaimsSet claims, JWK key) {
        if (key == null) {
            return invalid("unknown signing key");
        }
        JWSAlgorithm algorithm = jwt.getHeader().getAlgorithm();
        JWSVerifier verifier = verifier(key, algorithm);
        boolean valid;
        try {
            valid = verifier != null && jwt.verify(verifier);
        } catch (JOSEException | RuntimeException e) {
            valid = false;
        }
        if (!valid) {
            Invalid bad = new Invalid("invalid signature", System.currentTimeMillis() + BAD_SIGNATURE_MILLIS);
            refused.put(token, bad);
            return bad;
        }
        Verified verified =
                new Verified(identity(claims), claims.getExpirationTime().getTime() + skewMillis);
        tokens.put(token, verified);
        return verified;
    }

    /**
     * A verifier only for a key of the algorithm's own type and intended for signatures, so an RSA key
     * can never check an HMAC token and the reverse (RFC 8725, section 3.1).
     */
    private JWSVerifier verifier(JWK key, JWSAlgorithm algorithm) {
        if ((key.getAlgorithm() != null && !key.getAlgorithm().equals(algorithm))
                || (key.getKeyUse() != null && !KeyUse.SIGNATURE.equals(key.getKeyUse()))) {
            return null;
        }
        JWSVerifier cached = verifiers.get(key);
        if (cached != null) {
            return cached.supportedJWSAlgorithms().contains(algorithm) ? cached : null;
        }
        JWSVerifier verifier;
        try {
            if (JWSAlgorithm.Family.EC.contains(algorithm) && key instanceof ECKey ec) {
                verifier = new ECDSAVerifier(ec);
            } else if (JWSAlgorithm.Family.RSA.contains(algorithm) && key instanceof RSAKey rsa) {
                verifier = new RSASSAVerifier(rsa);
            } else {
                return null;
            }
        } catch (JOSEException e) {
            return null;
        }
        verifiers.put(key, verifier);
        return verifier.supportedJWSAlgorithms().contains(algorithm) ? verifier : null;
    }

    private Invalid checkClaims(JWTClaimsSet claims, long now) {
        Date expiry = claims.getExpirationTime();
        if (expiry == null) {
            return invalid("token has no expiry");
        }
        if (now > expiry.getTime() + skewMillis) {
            return invalid("token expired");
        }
        Date notBefore = claims.getNotBeforeTime();
        if (notBefore != null && now + skewMillis < notBefore.getTime()) {
            return invalid("token not yet valid");
        }
        if (issuer != null && !issuer.equals(claims.getIssuer())) {
            return invalid("wrong issuer");
        }
        if (!audiences.isEmpty() && !anyAudience(claims.getAudience())) {
            return invalid("wrong audience");
        }
        return null;
    }

    private boolean anyAudience(List<String> tokenAudiences) {
        for (String audience : tokenAudiences) {
            if (audiences.contains(audience)) {
                return true;
            }
        }
        return false;
    }

    private static Identity identity(JWTClaimsSet claims) {
        Map<String, Object> json = claims.toJSONObject();
        String subject = claims.getSubject();
        return new Identity("Bearer", subject == null ? "" : subject, json, scopes(json));
    }

    /** The {@code scope} claim (a space-separated string, RFC 8693 section 4.2) or {@code scp} (string or list). */
    private static Set<String> scopes(Map<String, Object> claims) {
        Set<String> scopes = new LinkedHashSet<>();
        for (String name : new String[] {"scope", "scp"}) {
            Object value = claims.get(name);
            if (value instanceof String text) {
                for (String scope : text.split(" ")) {
                    if (!scope.isEmpty()) {
                        scopes.add(scope);
                    }
                }
            } else if (value instanceof List<?> list) {
                list.forEach(scope -> scopes.add(String.valueOf(scope)));
            }
        }
        return scopes;
    }

    private static boolean hasThreeParts(String token) {
        int first = token.indexOf('.');
        int second = first < 0 ? -1 : token.indexOf('.', first + 1);
        return first > 0 && second > first + 1 && token.indexOf('.', second + 1) < 0 && second < token.length() - 1;
    }

    private static Invalid invalid(String description) {
        return new Invalid(description, 0);
    }

    private static CompletionStage<Outcome> done(Outcome outcome) {
        return CompletableFuture.completedFuture(outcome);
    }
}
