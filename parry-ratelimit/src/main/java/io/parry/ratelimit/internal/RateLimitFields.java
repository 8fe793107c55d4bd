package io.parry.ratelimit.internal;

import io.parry.ratelimit.RateLimit;
import io.parry.ratelimit.RateLimitDecision;

/**
 * The {@code RateLimit-Policy} and {@code RateLimit} fields of draft-ietf-httpapi-ratelimit-headers-10
 * (sections 2 and 3): Structured Field lists (RFC 9651) of one item, a policy named by a string, with
 * its quota {@code q} (the burst) and window {@code w} (the seconds an empty bucket takes to fill), and
 * the remaining quota {@code r} with the seconds {@code t} until the bucket is full again.
 */
public final class RateLimitFields {
    public static final String POLICY = "RateLimit-Policy";
    public static final String RATE_LIMIT = "RateLimit";

    private final String policy;
    private final String prefix;

    public RateLimitFields(String name, RateLimit limit) {
        String item = quoted(name);
        this.policy = item + ";q=" + limit.burst() + ";w=" + seconds(limit.capacityNanos());
        this.prefix = item + ";r=";
    }

    /** The {@code RateLimit-Policy} value, the same on every response. */
    public String policy() {
        return policy;
    }

    /** The {@code RateLimit} value after this decision. */
    public String rateLimit(RateLimitDecision decision) {
        return prefix + decision.remaining() + ";t="
                + (decision.resetNanos() <= 0 ? 0 : seconds(decision.resetNanos()));
    }

    /**
     * Whole seconds, rounded up and never 0: {@code Retry-After} is a number of seconds (RFC 9110, section
     * 10.2.3), and 0 would invite the client to retry at once.
     */
    public static long seconds(long nanos) {
        long seconds = nanos / 1_000_000_000L + (nanos % 1_000_000_000L > 0 ? 1 : 0);
        return Math.max(1, seconds);
    }

    /** An sf-string (RFC 9651, section 3.3.3): printable ASCII, with {@code "} and {@code \} escaped. */
    static String quoted(String name) {
        StringBuilder out = new StringBuilder(name.length() + 2).append('"');
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7f) {
                out.append(c);
            } else {
                out.append('_');
            }
        }
        return out.append('"').toString();
    }
}
