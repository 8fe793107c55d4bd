package io.parry.protection;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Adds security fields to every response the handler returns: {@code Strict-Transport-Security},
 * {@code X-Content-Type-Options: nosniff}, {@code X-Frame-Options} and {@code Referrer-Policy}. A
 * field the handler (or an upstream) set already is left as it is. Immutable and shared by all
 * requests; the field values are formatted once, when the filter is built.
 *
 * <pre>{@code
 * SecurityHeadersFilter headers = SecurityHeadersFilter.builder()
 *         .hsts(Duration.ofDays(365), true)
 *         .build();
 * Handler app = router.with(headers);
 * }</pre>
 *
 * <p>Defaults: {@code nosniff}, {@code X-Frame-Options: DENY}, {@code Referrer-Policy: no-referrer},
 * and no HSTS: a browser honours HSTS only on a secure connection (RFC 6797, section 8.1), and
 * promising HTTPS for a whole host is the operator's decision. A failure the handler does not answer
 * becomes an error response outside this filter and gets none of these fields; wrap the error handler
 * inside it ({@code router.with(errors.asFilter()).with(headers)}) for those too.
 */
public final class SecurityHeadersFilter implements Filter {
    private final Duration hstsMaxAge;
    private final boolean hstsIncludeSubDomains;
    private final boolean noSniff;
    private final String frameOptions;
    private final String referrerPolicy;
    /** Alternating names and values of the fields to add. */
    private final String[] fields;

    private SecurityHeadersFilter(Builder builder) {
        this.hstsMaxAge = builder.hstsMaxAge;
        this.hstsIncludeSubDomains = builder.hstsIncludeSubDomains;
        this.noSniff = builder.noSniff;
        this.frameOptions = builder.frameOptions;
        this.referrerPolicy = builder.referrerPolicy;
        List<String> list = new ArrayList<>(8);
        if (hstsMaxAge != null) {
            list.add("strict-transport-security");
            list.add("max-age=" + hstsMaxAge.getSeconds() + (hstsIncludeSubDomains ? "; includeSubDomains" : ""));
        }
        if (noSniff) {
            list.add("x-content-type-options");
            list.add("nosniff");
        }
        if (!frameOptions.isEmpty()) {
            list.add("x-frame-options");
            list.add(frameOptions);
        }
        if (!referrerPolicy.isEmpty()) {
            list.add("referrer-policy");
            list.add(referrerPolicy);
        }
        this.fields = list.toArray(new String[0]);
    }

    /** The filter with the defaults. */
    public static SecurityHeadersFilter ofDefault() {
        return builder().build();
    }

    /** A builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this filter's settings. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.hstsMaxAge = hstsMaxAge;
        builder.hstsIncludeSubDomains = hstsIncludeSubDomains;
        builder.noSniff = noSniff;
        builder.frameOptions = frameOptions;
        builder.referrerPolicy = referrerPolicy;
        return builder;
    }

    @Override
    public CompletionStage<HttpResponse> filter(Handler next, RequestContext ctx, HttpRequest request)
            throws Exception {
        return next.handle(ctx, request).thenApply(this::secure);
    }

    private HttpResponse secure(HttpResponse response) {
        HttpHeaders headers = response.headers();
        boolean missing = false;
        for (int i = 0; i < fields.length && !missing; i += 2) {
            missing = !headers.contains(fields[i]);
        }
        if (!missing) {
            return response;
        }
        return response.mapHeaders(edits -> {
            for (int i = 0; i < fields.length; i += 2) {
                if (!edits.contains(fields[i])) {
                    edits.add(fields[i], fields[i + 1]);
                }
            }
        });
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SecurityHeadersFilter that && Arrays.equals(fields, that.fields);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(fields);
    }

    @Override
    public String toString() {
        return "SecurityHeadersFilter" + Arrays.toString(fields);
    }

    /** Settings of the filter; {@link #build()} validates them. */
    public static final class Builder {
        private Duration hstsMaxAge;
        private boolean hstsIncludeSubDomains;
        private boolean noSniff = true;
        private String frameOptions = "DENY";
        private String referrerPolicy = "no-referrer";

        private Builder() {}

        /**
         * Sends {@code Strict-Transport-Security} with this max age (whole seconds) and, when asked,
         * {@code includeSubDomains}; {@code null} sends none (the default).
         */
        public Builder hsts(Duration maxAge, boolean includeSubDomains) {
            this.hstsMaxAge = maxAge;
            this.hstsIncludeSubDomains = includeSubDomains;
            return this;
        }

        /** Whether to send {@code X-Content-Type-Options: nosniff}; default true. */
        public Builder noSniff(boolean enabled) {
            this.noSniff = enabled;
            return this;
        }

        /** {@code X-Frame-Options}: {@code DENY} (default), {@code SAMEORIGIN}, or empty for none. */
        public Builder frameOptions(String value) {
            this.frameOptions = requireNonNull(value, "value");
            return this;
        }

        /** {@code Referrer-Policy}, such as {@code no-referrer} (default) or {@code strict-origin}; empty for none. */
        public Builder referrerPolicy(String value) {
            this.referrerPolicy = requireNonNull(value, "value");
            return this;
        }

        /** The filter; fails with {@link IllegalArgumentException} naming a wrong setting. */
        public SecurityHeadersFilter build() {
            if (hstsMaxAge != null && hstsMaxAge.isNegative()) {
                throw new IllegalArgumentException("hsts maxAge: " + hstsMaxAge + " (expected: >= 0)");
            }
            if (!frameOptions.isEmpty() && !frameOptions.equals("DENY") && !frameOptions.equals("SAMEORIGIN")) {
                throw new IllegalArgumentException(
                        "frameOptions: " + frameOptions + " (expected: DENY, SAMEORIGIN or empty)");
            }
            if (!referrerPolicy.isEmpty() && !REFERRER_POLICIES.contains(referrerPolicy)) {
                throw new IllegalArgumentException(
                        "referrerPolicy: " + referrerPolicy + " (expected: one of " + REFERRER_POLICIES + ")");
            }
            return new SecurityHeadersFilter(this);
        }
    }

    /** The policies of the W3C Referrer Policy recommendation, section 3. */
    static final List<String> REFERRER_POLICIES = List.of(
            "no-referrer",
            "no-referrer-when-downgrade",
            "same-origin",
            "origin",
            "strict-origin",
            "origin-when-cross-origin",
            "strict-origin-when-cross-origin",
            "unsafe-url");
}
