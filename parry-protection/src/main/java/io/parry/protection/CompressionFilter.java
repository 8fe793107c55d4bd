package io.parry.protection;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpBody;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.spi.AsciiCase;
import io.parry.http.spi.FixedBody;
import io.parry.protection.internal.AcceptEncoding;
import io.parry.protection.internal.CompressingBody;
import io.parry.protection.internal.ContentCoding;
import io.parry.protection.internal.Deflation;
import io.parry.protection.internal.Negotiation;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * Compresses response bodies with gzip (or deflate) when the request's {@code Accept-Encoding}
 * allows it. Immutable and shared by all requests.
 *
 * <pre>{@code
 * Handler app = router.with(CompressionFilter.builder().level(5).minSize(1024).build());
 * }</pre>
 *
 * <p>The coding is chosen by weight (RFC 9110, section 12.5.3): the client's highest {@code q}
 * among {@link Builder#algorithms algorithms}, their order breaking ties; {@code *} stands for
 * codings the client does not name, and {@code identity;q=0} makes even a body under {@link
 * Builder#minSize minSize} compressed. A compressed response gets {@code Content-Encoding}, loses
 * {@code Content-Length} (the server frames the new body), and has its strong {@code ETag} made weak,
 * since its bytes are no longer the ones the tag named (RFC 9110, section 8.8.1). Every response this
 * filter could compress gets {@code Vary: Accept-Encoding}, compressed or not, so that caches keep the
 * variants apart.
 *
 * <p>Left as they are: answers to {@code HEAD}; 1xx, 204, 206 and 304 responses; bodies that already
 * have a {@code Content-Encoding} (never compressed twice); {@code Cache-Control: no-transform} (RFC
 * 9111, section 5.2.2.6); media types not in {@link Builder#contentTypes contentTypes}; and {@code
 * text/event-stream} unless {@link Builder#eventStreams eventStreams} is on.
 *
 * <p>Threading and cost: a fixed body is compressed at once on the thread that completes the
 * handler's stage (an event loop keeps its zlib state between responses); a streamed body (a proxied
 * one, events) is compressed chunk by chunk as the server pulls it, never held whole, each chunk
 * flushed so that a stream is never held back. Each streamed response holds its own zlib state (about
 * 300 KiB of native memory) until its body ends: count it when many long streams may be compressed at
 * once.
 */
public final class CompressionFilter implements Filter {
    /** The media types compressed by default: text that compresses well. */
    public static final List<String> DEFAULT_CONTENT_TYPES = List.of(
            "text/html",
            "text/plain",
            "text/css",
            "text/javascript",
            "text/xml",
            "text/csv",
            "application/json",
            "application/problem+json",
            "application/javascript",
            "application/xml",
            "image/svg+xml");

    private static final String EVENT_STREAM = "text/event-stream";

    private final int level;
    private final long minSize;
    private final List<String> contentTypes;
    private final List<String> algorithms;
    private final boolean eventStreams;
    private final List<ContentCoding> codings;

    private CompressionFilter(Builder builder) {
        this.level = builder.level;
        this.minSize = builder.minSize;
        this.contentTypes = builder.contentTypes;
        this.algorithms = builder.algorithms;
        this.eventStreams = builder.eventStreams;
        List<ContentCoding> list = new ArrayList<>(algorithms.size());
        for (String algorithm : algorithms) {
            list.add(ContentCoding.of(algorithm));
        }
        this.codings = List.copyOf(list);
    }

    /** The filter with the defaults: gzip at level 6, from 1 KiB, {@link #DEFAULT_CONTENT_TYPES}. */
    public static CompressionFilter ofDefault() {
        return builder().build();
    }

    /** A builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this filter's settings. */
    public Builder toBuilder() {
        return new Builder()
                .level(level)
                .minSize(minSize)
                .contentTypes(contentTypes)
                .algorithms(algorithms)
                .eventStreams(eventStreams);
    }

    @Override
    public CompletionStage<HttpResponse> filter(Handler next, RequestContext ctx, HttpRequest request)
            throws Exception {
        if (request.method() == HttpMethod.HEAD) {
            return next.handle(ctx, request);
        }
        List<String> accepted = request.headers().getAll("accept-encoding");
        return next.handle(ctx, request).thenApply(response -> compress(response, accepted));
    }

    private HttpResponse compress(HttpResponse response, List<String> accepted) {
        int status = response.status().code();
        HttpBody body = response.body();
        HttpHeaders headers = response.headers();
        if (status < 200 || status == 204 || status == 206 || status == 304 || body.contentLength() == 0) {
            return response;
        }
        if (headers.contains("content-encoding")
                || headers.contains("content-range")
                || !compressible(headers.get("content-type"))
                || headers.containsValue("cache-control", "no-transform")) {
            return response;
        }
        Negotiation negotiation = AcceptEncoding.negotiate(accepted, codings);
        ContentCoding coding = negotiation.coding();
        long length = body.contentLength();
        if (coding == null || (length >= 0 && length < minSize && !negotiation.identityRefused())) {
            return varied(response);
        }
        HttpBody compressed = body instanceof FixedBody fixed
                ? HttpBody.of(Deflation.compress(coding, level, fixed.data()))
                : CompressingBody.of(body, coding, level);
        return response.withBody(compressed).mapHeaders(edits -> {
            edits.remove("content-length");
            edits.set("content-encoding", coding.token());
            String etag = headers.get("etag");
            if (etag != null && !etag.startsWith("W/")) {
                edits.set("etag", "W/" + etag);
            }
            addVary(headers, edits);
        });
    }

    private HttpResponse varied(HttpResponse response) {
        HttpHeaders headers = response.headers();
        if (headers.containsValue("vary", "accept-encoding") || headers.containsValue("vary", "*")) {
            return response;
        }
        return response.mapHeaders(edits -> addVary(headers, edits));
    }

    private static void addVary(HttpHeaders headers, HttpHeaders.Builder edits) {
        if (!headers.containsValue("vary", "accept-encoding") && !headers.containsValue("vary", "*")) {
            edits.add("vary", "accept-encoding");
        }
    }

    /** Whether the type (its parameters aside, case ignored) is one of the configured ones; no allocation. */
    private boolean compressible(String contentType) {
        if (contentType == null) {
            return false;
        }
        int end = contentType.indexOf(';');
        end = end < 0 ? contentType.length() : end;
        while (end > 0 && contentType.charAt(end - 1) == ' ') {
            end--;
        }
        if (AsciiCase.regionEqualsIgnoreCase(contentType, 0, end, EVENT_STREAM)) {
            return eventStreams;
        }
        for (int i = 0; i < contentTypes.size(); i++) {
            if (AsciiCase.regionEqualsIgnoreCase(contentType, 0, end, contentTypes.get(i))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CompressionFilter that
                && level == that.level
                && minSize == that.minSize
                && eventStreams == that.eventStreams
                && contentTypes.equals(that.contentTypes)
                && algorithms.equals(that.algorithms);
    }

    @Override
    public int hashCode() {
        return ((level * 31 + Long.hashCode(minSize)) * 31 + contentTypes.hashCode()) * 31
                + algorithms.hashCode()
                + (eventStreams ? 1 : 0);
    }

    @Override
    public String toString() {
        return "CompressionFilter[level=" + level + ", minSize=" + minSize + ", contentTypes=" + contentTypes
                + ", algorithms=" + algorithms + ", eventStreams=" + eventStreams + "]";
    }

    /** Settings of the filter; {@link #build()} validates them. */
    public static final class Builder {
        private int level = 6;
        private long minSize = 1024;
        private List<String> contentTypes = DEFAULT_CONTENT_TYPES;
        private List<String> algorithms = List.of("gzip");
        private boolean eventStreams;

        private Builder() {}

        /** The zlib level, 1 (fastest) to 9 (smallest); default 6, zlib's own default. */
        public Builder level(int level) {
            this.level = level;
            return this;
        }

        /**
         * The smallest body, in bytes, worth compressing when its length is known; default 1024. A
         * streamed body of unknown length is always compressed.
         */
        public Builder minSize(long bytes) {
            this.minSize = bytes;
            return this;
        }

        /**
         * The media types to compress, without parameters, such as {@code application/json}; default
         * {@link #DEFAULT_CONTENT_TYPES}.
         */
        public Builder contentTypes(List<String> types) {
            this.contentTypes = List.copyOf(requireNonNull(types, "types"));
            return this;
        }

        /** The codings offered, preferred first: {@code gzip} and {@code deflate}; default {@code [gzip]}. */
        public Builder algorithms(List<String> names) {
            this.algorithms = List.copyOf(requireNonNull(names, "names"));
            return this;
        }

        /**
         * Whether {@code text/event-stream} is compressed too, each event flushed as it is sent; default
         * false, since a proxy or client that buffers compressed data would hold events back.
         */
        public Builder eventStreams(boolean enabled) {
            this.eventStreams = enabled;
            return this;
        }

        /** The filter; fails with {@link IllegalArgumentException} naming a wrong setting. */
        public CompressionFilter build() {
            if (level < 1 || level > 9) {
                throw new IllegalArgumentException("level: " + level + " (expected: 1 to 9)");
            }
            if (minSize < 0) {
                throw new IllegalArgumentException("minSize: " + minSize + " (expected: >= 0)");
            }
            if (algorithms.isEmpty()) {
                throw new IllegalArgumentException("algorithms: [] (expected: gzip, deflate or both)");
            }
            for (String algorithm : algorithms) {
                if (!algorithm.equals("gzip") && !algorithm.equals("deflate")) {
                    throw new IllegalArgumentException(
                            "algorithms: " + algorithms + " (expected: gzip, deflate or both)");
                }
            }
            if (Set.copyOf(algorithms).size() != algorithms.size()) {
                throw new IllegalArgumentException("algorithms: " + algorithms + " (expected: each once)");
            }
            List<String> types = new ArrayList<>(contentTypes.size());
            for (String type : contentTypes) {
                int slash = type.indexOf('/');
                if (slash <= 0 || slash == type.length() - 1 || type.indexOf(';') >= 0 || type.indexOf(' ') >= 0) {
                    throw new IllegalArgumentException("contentTypes: " + type
                            + " (expected: a media type without parameters, such as" + " application/json)");
                }
                types.add(type.toLowerCase(Locale.ROOT));
            }
            contentTypes = List.copyOf(types);
            return new CompressionFilter(this);
        }
    }
}
