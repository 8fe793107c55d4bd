package io.parry.server.cors;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpBody;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.Problem;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers cross-origin requests as the Fetch standard's CORS protocol asks; immutable and shared by
 * all requests. Wrap the application with it outside any authentication filter, since browsers send
 * preflights without credentials:
 *
 * <pre>{@code
 * CorsFilter cors = CorsFilter.builder()
 *         .allowOrigins("https://app.example")
 *         .allowMethods(HttpMethod.PUT, HttpMethod.DELETE)
 *         .allowHeaders("content-type")
 *         .exposeHeaders("location")
 *         .allowCredentials(true)
 *         .maxAge(Duration.ofMinutes(10))
 *         .build();
 * Handler app = router.with(cors);
 * }</pre>
 *
 * <ul>
 *   <li>A request without {@code Origin} reaches the handler unchanged. When the answer depends on the
 *       origin (explicit origins), its response gets {@code Vary: Origin}, so an HTTP cache does not
 *       give a later cross-origin request a response without CORS fields (Fetch, "CORS protocol and
 *       HTTP caches").
 *   <li>A preflight ({@code OPTIONS} with {@code Origin} and {@code Access-Control-Request-Method}) is
 *       answered here and never reaches the handler: 204 with {@code Access-Control-Allow-Origin},
 *       {@code -Allow-Methods}, {@code -Allow-Headers} (the requested names), {@code -Max-Age} and
 *       {@code -Allow-Credentials} when they apply. A preflight whose origin, method or any requested
 *       header is not allowed gets 403 {@code application/problem+json} without CORS fields: Fetch
 *       fails a preflight whose status is not ok, and the detail shows the developer in the browser's
 *       network panel which part was refused.
 *   <li>Any other request with an allowed origin reaches the handler, and its response gets
 *       {@code Access-Control-Allow-Origin} (the request's origin, or {@code *} for any origin without
 *       credentials), {@code Access-Control-Allow-Credentials: true} when enabled and
 *       {@code Access-Control-Expose-Headers}. The first two replace any the handler set (Fetch reads
 *       them as single values); exposed names are added to any the handler lists. A request
 *       from an origin not allowed reaches the handler too and its response gets no CORS fields: the
 *       browser withholds the response from the script. Refusing it here would break same-origin
 *       requests, which browsers also send with {@code Origin}.
 *   <li>{@code Origin: null} (sandboxed documents, {@code file:} pages, redirects across origins) is
 *       allowed only by {@link Builder#allowAnyOrigin()}, which answers {@code *}; it cannot be allowed
 *       by name, since any site can make a document with that origin.
 *   <li>A failure of the handler passes through unchanged to the error handlers outside, so its problem
 *       response carries no CORS fields. To let scripts read error problems, answer failures inside the
 *       filter: {@code router.with(errorHandler.asFilter()).with(cors)}.
 * </ul>
 *
 * <p>Origins are found in a hash set: a browser sends its origin serialized (lower-case scheme and
 * host, no default port), and configured origins are written the same way when the filter is built.
 * Methods compare case-sensitively, as Fetch and RFC 9110 do; header names case-insensitively.
 */
public final class CorsFilter implements Filter {
    private static final Logger log = LoggerFactory.getLogger("io.parry.server.cors");
    private static final List<String> SAFELISTED_METHODS = List.of("GET", "HEAD", "POST");
    private static final String PREFLIGHT_VARY =
            "Origin, Access-Control-Request-Method, Access-Control-Request-Headers";

    private final Set<String> origins;
    private final boolean anyOrigin;
    private final Set<String> methods;
    private final boolean anyMethod;
    private final Set<String> headers;
    private final boolean anyHeader;
    private final List<String> exposedHeaders;
    private final boolean credentials;
    private final Duration maxAge;

    private final String allowMethodsValue;
    private final String exposeHeadersValue;
    private final String maxAgeValue;

    private CorsFilter(
            Builder builder, Set<String> origins, Set<String> methods, Set<String> headers, List<String> exposed) {
        this.origins = origins;
        this.anyOrigin = builder.anyOrigin;
        this.methods = methods;
        this.anyMethod = builder.anyMethod;
        this.headers = headers;
        this.anyHeader = builder.anyHeader;
        this.exposedHeaders = exposed;
        this.credentials = builder.credentials;
        this.maxAge = builder.maxAge;
        this.allowMethodsValue = String.join(", ", methods);
        this.exposeHeadersValue = exposed.isEmpty() ? null : String.join(", ", exposed);
        this.maxAgeValue = maxAge == null ? null : Long.toString(maxAge.getSeconds());
    }

    /** A builder with no origin allowed yet; {@code build()} requires origins or any origin. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this filter's settings. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.origins = List.copyOf(origins);
        builder.anyOrigin = anyOrigin;
        builder.methods = new ArrayList<>(methods.size());
        for (String method : methods) {
            builder.methods.add(HttpMethod.of(method));
        }
        builder.anyMethod = anyMethod;
        builder.headers = List.copyOf(headers);
        builder.anyHeader = anyHeader;
        builder.exposedHeaders = exposedHeaders;
        builder.credentials = credentials;
        builder.maxAge = maxAge;
        return builder;
    }

    @Override
    public CompletionStage<HttpResponse> filter(Handler next, RequestContext ctx, HttpRequest request)
            throws Exception {
        String origin = request.headers().get("origin");
        if (origin != null && HttpMethod.OPTIONS.equals(request.method())) {
            String requestedMethod = request.headers().get("access-control-request-method");
            if (requestedMethod != null) {
                return preflight(ctx, request, origin, requestedMethod.trim()).toStage();
            }
        }
        CompletionStage<HttpResponse> response = next.handle(ctx, request);
        if (origin != null && allows(origin)) {
            return response.thenApply(answer -> withCorsFields(answer, origin));
        }
        return anyOrigin ? response : response.thenApply(CorsFilter::varyOrigin);
    }

    private HttpResponse withCorsFields(HttpResponse response, String origin) {
        return response.mapHeaders(fields -> {
            fields.set("access-control-allow-origin", allowOriginValue(origin));
            if (credentials) {
                fields.set("access-control-allow-credentials", "true");
            } else {
                fields.remove("access-control-allow-credentials");
            }
            if (exposeHeadersValue != null) {
                fields.add("access-control-expose-headers", exposeHeadersValue);
            }
            if (!anyOrigin) {
                addVary(fields, response.headers(), "Origin");
            }
        });
    }

    private HttpResponse preflight(RequestContext ctx, HttpRequest request, String origin, String method) {
        if (!allows(origin)) {
            return refuse(ctx, request, "The origin " + origin + " is not allowed.");
        }
        if (anyMethod ? !HeaderNames.isToken(method) : !methods.contains(method)) {
            return refuse(ctx, request, "The method " + method + " is not allowed.");
        }
        List<String> requested = HeaderNames.parse(request.headers().getAll("access-control-request-headers"));
        if (requested == null) {
            return refuse(ctx, request, "Access-Control-Request-Headers is not a list of header names.");
        }
        for (String name : requested) {
            if (!headers.contains(name) && !(anyHeader && !name.equals("authorization"))) {
                return refuse(ctx, request, "The header " + name + " is not allowed.");
            }
        }
        HttpHeaders.Builder fields = HttpHeaders.builder()
                .add("access-control-allow-origin", allowOriginValue(origin))
                .add("access-control-allow-methods", anyMethod ? method : allowMethodsValue);
        if (!requested.isEmpty()) {
            fields.add("access-control-allow-headers", String.join(", ", requested));
        }
        if (credentials) {
            fields.add("access-control-allow-credentials", "true");
        }
        if (maxAgeValue != null) {
            fields.add("access-control-max-age", maxAgeValue);
        }
        fields.add("vary", PREFLIGHT_VARY);
        return HttpResponse.of(HttpStatus.NO_CONTENT, fields.build(), HttpBody.empty());
    }

    private static HttpResponse refuse(RequestContext ctx, HttpRequest request, String detail) {
        if (log.isDebugEnabled()) {
            log.debug("CORS preflight refused for {} (request id {}): {}", request.path(), ctx.requestId(), detail);
        }
        return Problem.of(HttpStatus.FORBIDDEN)
                .detail(detail)
                .instance(request.path())
                .requestId(ctx.requestId())
                .toResponse()
                .withHeader("vary", PREFLIGHT_VARY);
    }

    private boolean allows(String origin) {
        return anyOrigin || origins.contains(origin);
    }

    /** Fetch, "CORS check": {@code *} only when credentials are not included, else the exact origin. */
    private String allowOriginValue(String origin) {
        return anyOrigin ? "*" : origin;
    }

    private static HttpResponse varyOrigin(HttpResponse response) {
        HttpHeaders current = response.headers();
        return varies(current, "Origin") ? response : response.mapHeaders(fields -> addVary(fields, current, "Origin"));
    }

    private static void addVary(HttpHeaders.Builder fields, HttpHeaders current, String name) {
        if (!varies(current, name)) {
            fields.add("vary", name);
        }
    }

    /** Whether the response already varies on the field (or on everything, {@code Vary: *}). */
    private static boolean varies(HttpHeaders headers, String name) {
        return headers.containsValue("vary", name) || headers.containsValue("vary", "*");
    }

    @Override
    public String toString() {
        return "CorsFilter(origins=" + (anyOrigin ? "*" : origins)
                + ", methods=" + (anyMethod ? "*" : methods)
                + ", headers=" + (anyHeader ? "*" + (headers.isEmpty() ? "" : " and " + headers) : headers)
                + ", exposedHeaders=" + exposedHeaders
                + ", credentials=" + credentials
                + ", maxAge=" + maxAge + ")";
    }

    /**
     * Builds a {@link CorsFilter}; not thread-safe. Each setter replaces what an earlier call set;
     * {@link #allowOrigins} and {@link #allowAnyOrigin()} replace each other, as do
     * {@link #allowMethods} and {@link #allowAnyMethod()}.
     */
    public static final class Builder {
        private List<String> origins = List.of();
        private boolean anyOrigin;
        private List<HttpMethod> methods = List.of();
        private boolean anyMethod;
        private List<String> headers = List.of();
        private boolean anyHeader;
        private List<String> exposedHeaders = List.of();
        private boolean credentials;
        private Duration maxAge;

        private Builder() {}

        /**
         * Allows these origins, each {@code scheme://host[:port]} as a browser sends it in
         * {@code Origin}, for example {@code https://app.example} or {@code http://localhost:3000}.
         * Case and a default port do not matter; a path, {@code *} and {@code null} are refused in
         * {@link #build()}.
         */
        public Builder allowOrigins(String... origins) {
            this.origins = List.of(requireNonNull(origins, "origins"));
            this.anyOrigin = false;
            return this;
        }

        /**
         * Allows every origin, answered with {@code Access-Control-Allow-Origin: *}: for public
         * resources that do not depend on cookies or HTTP authentication. Cannot be combined with
         * {@link #allowCredentials(boolean) credentials}.
         */
        public Builder allowAnyOrigin() {
            this.origins = List.of();
            this.anyOrigin = true;
            return this;
        }

        /**
         * Allows these methods in preflights, compared case-sensitively. {@code GET}, {@code HEAD} and
         * {@code POST} are always allowed: Fetch never checks them (CORS-safelisted methods).
         */
        public Builder allowMethods(HttpMethod... methods) {
            this.methods = List.of(requireNonNull(methods, "methods"));
            this.anyMethod = false;
            return this;
        }

        /** Allows every method; a preflight is answered with the method it asked for. */
        public Builder allowAnyMethod() {
            this.methods = List.of();
            this.anyMethod = true;
            return this;
        }

        /**
         * Allows these request header names in preflights, compared case-insensitively, for example
         * {@code content-type} for a JSON body or {@code authorization}. None by default: browsers
         * preflight only headers outside the CORS-safelist.
         */
        public Builder allowHeaders(String... names) {
            this.headers = List.of(requireNonNull(names, "names"));
            return this;
        }

        /**
         * Allows every request header name except {@code authorization}, which, as in Fetch's
         * {@code *} (CORS non-wildcard request-header name), must also be named in
         * {@link #allowHeaders}. A preflight is answered with the names it asked for, so this works
         * with credentials too.
         */
        public Builder allowAnyHeader() {
            this.anyHeader = true;
            return this;
        }

        /**
         * Lets scripts read these response header names beyond the CORS-safelisted ones (for example
         * {@code location} or {@code etag}). {@code *} exposes every header, but only without
         * credentials. None by default.
         */
        public Builder exposeHeaders(String... names) {
            this.exposedHeaders = List.of(requireNonNull(names, "names"));
            return this;
        }

        /**
         * Whether requests may include credentials (cookies, HTTP authentication, client
         * certificates): answered with {@code Access-Control-Allow-Credentials: true}. Default false;
         * requires explicit origins.
         */
        public Builder allowCredentials(boolean allow) {
            this.credentials = allow;
            return this;
        }

        /**
         * How long a browser may cache a preflight's answer, sent in whole seconds as
         * {@code Access-Control-Max-Age}. Not sent by default, so browsers cache for 5 seconds;
         * browsers also cap the value (Chromium at 2 hours, Firefox at 24 hours).
         */
        public Builder maxAge(Duration maxAge) {
            this.maxAge = requireNonNull(maxAge, "maxAge");
            return this;
        }

        /**
         * The filter.
         *
         * @throws IllegalArgumentException if no origin is allowed, an origin or header name is
         *     malformed, credentials are combined with any origin or with {@code *} exposed headers,
         *     or the max age is negative
         */
        public CorsFilter build() {
            if (!anyOrigin && origins.isEmpty()) {
                throw new IllegalArgumentException(
                        "allowOrigins: none (expected: at least one origin, or allowAnyOrigin())");
            }
            if (credentials && anyOrigin) {
                throw new IllegalArgumentException("allowCredentials with any origin (expected: explicit origins)");
            }
            if (maxAge != null && maxAge.isNegative()) {
                throw new IllegalArgumentException("maxAge: " + maxAge + " (expected: >= 0)");
            }
            Set<String> allowedOrigins = new LinkedHashSet<>();
            for (String origin : origins) {
                allowedOrigins.add(CorsOrigins.normalize(requireNonNull(origin, "origin")));
            }
            Set<String> allowedMethods = new LinkedHashSet<>();
            for (HttpMethod method : methods) {
                allowedMethods.add(requireNonNull(method, "method").name());
            }
            allowedMethods.addAll(SAFELISTED_METHODS);
            Set<String> allowedHeaders = new LinkedHashSet<>();
            for (String name : headers) {
                allowedHeaders.add(
                        HeaderNames.normalize("allowHeaders", requireNonNull(name, "name"), "allowAnyHeader()"));
            }
            Set<String> exposed = new LinkedHashSet<>();
            for (String name : exposedHeaders) {
                exposed.add(HeaderNames.normalize("exposeHeaders", requireNonNull(name, "name"), null));
            }
            if (credentials && exposed.contains("*")) {
                throw new IllegalArgumentException("exposeHeaders: * with allowCredentials (expected: header names)");
            }
            return new CorsFilter(
                    this,
                    Collections.unmodifiableSet(allowedOrigins),
                    Collections.unmodifiableSet(allowedMethods),
                    Collections.unmodifiableSet(allowedHeaders),
                    List.copyOf(exposed));
        }
    }
}
