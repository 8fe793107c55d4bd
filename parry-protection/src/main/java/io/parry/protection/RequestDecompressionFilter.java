package io.parry.protection;

import io.parry.http.HttpBody;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.protection.internal.AcceptEncoding;
import io.parry.protection.internal.TransformedBody;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * Decompresses request bodies sent with {@code Content-Encoding: gzip} (or {@code x-gzip}) or {@code
 * deflate}, or another {@link ContentCoding} it is given (such as zstd), so that handlers and upstreams behind it see the plain body, and refuses one that inflates
 * past {@link #maxSize()} with 413. Opt-in: a server that never meant to accept compressed bodies
 * should not start inflating them. Immutable and shared by all requests.
 *
 * <pre>{@code
 * Handler app = router.with(RequestDecompressionFilter.of(8 << 20));
 * }</pre>
 *
 * <p>The body is inflated chunk by chunk as the handler reads it, never held whole, and no buffer is
 * ever larger than what is left of the bound: a few kilobytes that inflate to gigabytes (a "zip bomb")
 * cost at most the bound before the 413. Data that is not valid in its coding, or ends early, fails
 * the body with 400. The request reaches the handler without {@code Content-Encoding} and {@code
 * Content-Length} (its length is no longer known). Any other coding, or more than one, passes through
 * untouched, for the handler to accept or refuse (RFC 9110, section 8.4: 415). The server's own body
 * limit still bounds the compressed bytes.
 */
public final class RequestDecompressionFilter implements Filter {
    private static final List<ContentCoding> ZLIB = List.of(ContentCoding.gzip(6), ContentCoding.deflate(6));

    private final long maxSize;
    private final List<ContentCoding> codings;

    private RequestDecompressionFilter(long maxSize, List<ContentCoding> codings) {
        this.maxSize = maxSize;
        this.codings = codings;
    }

    /**
     * A filter that reads gzip and deflate and refuses bodies inflating past {@code maxSize} bytes.
     *
     * @throws IllegalArgumentException when {@code maxSize} is not positive
     */
    public static RequestDecompressionFilter of(long maxSize) {
        return of(maxSize, ZLIB);
    }

    /**
     * A filter that reads these codings (their levels do not matter) and refuses bodies decoding past
     * {@code maxSize} bytes.
     *
     * @throws IllegalArgumentException when {@code maxSize} is not positive, or the codings are none or
     *     name one coding twice
     */
    public static RequestDecompressionFilter of(long maxSize, List<ContentCoding> codings) {
        if (maxSize <= 0) {
            throw new IllegalArgumentException("maxSize: " + maxSize + " (expected: > 0)");
        }
        List<ContentCoding> copy = List.copyOf(codings);
        Set<String> tokens = new HashSet<>();
        for (ContentCoding coding : copy) {
            if (!tokens.add(coding.token())) {
                throw new IllegalArgumentException("codings: " + copy + " (expected: each coding once)");
            }
        }
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("codings: [] (expected: at least one coding)");
        }
        return new RequestDecompressionFilter(maxSize, copy);
    }

    /** The most bytes a body may inflate to. */
    public long maxSize() {
        return maxSize;
    }

    @Override
    public CompletionStage<HttpResponse> filter(Handler next, RequestContext ctx, HttpRequest request)
            throws Exception {
        String encoding = request.headers().get("content-encoding");
        ContentCoding coding = encoding == null ? null : coding(encoding.trim());
        // A request without content (a GET that names a coding) keeps its framing: there is nothing to inflate.
        if (coding == null
                || request.body().contentLength() == 0
                || request.headers().getAll("content-encoding").size() > 1) {
            return next.handle(ctx, request);
        }
        HttpBody inflated = TransformedBody.decoded(request.body(), coding, maxSize);
        HttpRequest plain = request.withBody(inflated)
                .mapHeaders(edits -> edits.remove("content-encoding").remove("content-length"));
        return next.handle(ctx, plain);
    }

    private ContentCoding coding(String name) {
        for (int i = 0; i < codings.size(); i++) {
            ContentCoding coding = codings.get(i);
            if (AcceptEncoding.names(name, 0, name.length(), coding.token())) {
                return coding;
            }
        }
        return null;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RequestDecompressionFilter that
                && maxSize == that.maxSize
                && codings.equals(that.codings);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(maxSize) * 31 + codings.hashCode();
    }

    @Override
    public String toString() {
        return "RequestDecompressionFilter[maxSize=" + maxSize + ", codings=" + codings + "]";
    }
}
