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
import io.parry.protection.internal.TransformedBody;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * Compresses response bodies with gzip (or deflate, or a coding from an optional module such as zstd)
 * when the request's {@code Accept-Encoding} allows it. Immutable and shared by all requests.
 *
 * <pre>{@code
 * Handler app = router.with(CompressionFilter.builder()
 *         .encodings(List.of(ZstdCoding.ofDefault(), ContentCoding.gzip(5)))
 *         .minSize(1024)
 *         .build());
 * }</pre>
 *
 * <p>The coding is chosen by weight (RFC 9110, section 12.5.3): the client's highest {@code q}
 * among {@link Builder#encodings encodings}, their order breaking ties; {@code *} stands for
 * codings the client does not name, and {@code identity;q=0} makes even a body under {@link
 * Builder#minSize minSize} compressed. A compressed response gets {@code Content-Encoding}, loses
 * {@code Content-Length} (the server frames the new body), and has its strong {@code ETag} made weak,
 * since its bytes are no longer the ones the tag named (RFC 9110, section 8.8.1). Every response this
 * filter could compress gets {@code Vary: Accept-Encoding}, compressed or not, so that caches keep the
 * variants apart. A {@code HEAD} request gets the head its {@code GET} would (RFC 9110, section
 * 9.3.2): the same {@code Content-Encoding}, {@code Vary} and {@code ETag}, without a {@code
 * Content-Length}, which only compressing the body would tell.
 *
 * <p>Left as they are: 1xx, 204, 206 and 304 responses; bodies that already
 * have a {@code Content-Encoding} (never compressed twice); {@code Cache-Control: no-transform} (RFC
 * 9111, section 5.2.2.6); media types not in {@link Builder#contentTypes contentTypes}; and {@code
 * text/event-stream} unless {@link Builder#eventStreams eventStreams} is on.
 *
 * <p>Threading and cost: a fixed body is compressed at once on the thread that completes the
 * handler's stage (an event loop keeps its zlib state between responses); a streamed body (a proxied
 * one, events) is compressed chunk by chunk as the server pulls it, never held whole, each chunk
 * flushed so that a stream is never held back. Each streamed response holds its own coding state
 * (about 300 KiB of native memory for gzip, about 1 MiB for zstd at level 3) until its body ends:
 * count it when many long streams may be compressed at once.
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

    private final long minSize;
    private final List<String> contentTypes;
    private final List<ContentCoding> encodings;
    private final boolean eventStreams;

    private CompressionFilter(Builder builder) {
        this.minSize = builder.minSize;
        this.contentTypes = builder.contentTypes;
        this.encodings = builder.encodings;
        this.eventStreams = builder.eventStreams;
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
                .minSize(minSize)
                .contentTypes(contentTypes)
                .encodings(encodings)
                .eventStreams(eventStreams);
    }

    @Override
    public CompletionStage<HttpResponse> filter(Handler next, RequestContext ctx, HttpRequest request)
            throws Exception {
        List<String> accepted = request.headers().getAll("accept-encoding");
        boolean head = request.method() == HttpMethod.HEAD;
        return next.handle(ctx, request).thenApply(response -> compress(response, accepted, head));
    }

    private HttpResponse compress(HttpResponse response, List<String> accepted, boolean head) {
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
        int outcome = AcceptEncoding.negotiate(accepted, encodings);
        int chosen = AcceptEncoding.chosen(outcome);
        long length = body.contentLength();
        if (chosen < 0 || (length >= 0 && length < minSize && !AcceptEncoding.identityRefused(outcome))) {
            return varied(response);
        }
        ContentCoding coding = encodings.get(chosen);
        HttpBody compressed;
        if (head) {
            compressed = TransformedBody.ofUnknownLength(body); // The server sends none of it.
        } else if (body instanceof FixedBody fixed) {
            compressed = HttpBody.of(coding.encode(fixed.data()));
        } else {
            compressed = TransformedBody.encoded(body, coding);
        }
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
                && minSize == that.minSize
                && eventStreams == that.eventStreams
                && contentTypes.equals(that.contentTypes)
                && encodings.equals(that.encodings);
    }

    @Override
    public int hashCode() {
        return (Long.hashCode(minSize) * 31 + contentTypes.hashCode()) * 31
                + encodings.hashCode()
                + (eventStreams ? 1 : 0);
    }

    @Override
    public String toString() {
        return "CompressionFilter[encodings=" + encodings + ", minSize=" + minSize + ", contentTypes=" + contentTypes
                + ", eventStreams=" + eventStreams + "]";
    }

    /** Settings of the filter; {@link #build()} validates them. */
    public static final class Builder {
        private long minSize = 1024;
        private List<String> contentTypes = DEFAULT_CONTENT_TYPES;
        private List<ContentCoding> encodings = List.of(ContentCoding.gzip(6));
        private boolean eventStreams;

        private Builder() {}

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

        /**
         * The codings offered, preferred first (the order breaks ties between the client's weights),
         * each with its own level; default gzip at level 6, zlib's own default.
         */
        public Builder encodings(List<ContentCoding> codings) {
            this.encodings = List.copyOf(requireNonNull(codings, "codings"));
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
            if (minSize < 0) {
                throw new IllegalArgumentException("minSize: " + minSize + " (expected: >= 0)");
            }
            if (encodings.isEmpty()) {
                throw new IllegalArgumentException("encodings: [] (expected: at least one coding)");
            }
            Set<String> tokens = new HashSet<>();
            for (ContentCoding coding : encodings) {
                if (!tokens.add(coding.token())) {
                    throw new IllegalArgumentException("encodings: " + encodings + " (expected: each coding once)");
                }
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
