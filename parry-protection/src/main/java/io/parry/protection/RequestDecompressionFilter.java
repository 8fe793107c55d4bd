package io.parry.protection;

import io.parry.http.HttpBody;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.Problem;
import io.parry.http.spi.AsciiCase;
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
 * Content-Length} (its length is no longer known). The server's own body limit still bounds the
 * compressed bytes.
 *
 * <p>Several codings (in one field, {@code gzip, gzip}, or in several fields) are decoded each in turn,
 * the last applied first (RFC 9110, section 8.4: they are listed in the order they were applied), each
 * within {@link #maxSize()}, so that no layer of a nested bomb inflates past the bound either; more than
 * {@value #MAX_CODINGS} are refused with 415 and the codings read in {@code Accept-Encoding} (RFC 9110,
 * section 15.5.16). A list naming any other coding passes through untouched, for the handler to accept
 * or refuse (415).
 */
public final class RequestDecompressionFilter implements Filter {
    /** The most codings a body may come in: one is usual, two is odd, more is only work for the server. */
    public static final int MAX_CODINGS = 2;

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
        List<String> fields = request.headers().getAll("content-encoding");
        // A request without content (a GET that names a coding) keeps its framing: there is nothing to inflate.
        if (fields.isEmpty() || request.body().contentLength() == 0) {
            return next.handle(ctx, request);
        }
        ContentCoding[] applied = new ContentCoding[MAX_CODINGS];
        int count = 0;
        for (int f = 0; f < fields.size(); f++) {
            String field = fields.get(f);
            int start = 0;
            while (start <= field.length()) {
                int comma = field.indexOf(',', start);
                int end = comma < 0 ? field.length() : comma;
                int nameStart = start;
                int nameEnd = end;
                start = end + 1;
                while (nameStart < nameEnd && isSpace(field.charAt(nameStart))) {
                    nameStart++;
                }
                while (nameEnd > nameStart && isSpace(field.charAt(nameEnd - 1))) {
                    nameEnd--;
                }
                if (nameStart == nameEnd || AsciiCase.regionEqualsIgnoreCase(field, nameStart, nameEnd, "identity")) {
                    continue;
                }
                ContentCoding coding = coding(field, nameStart, nameEnd);
                if (coding == null) {
                    return next.handle(ctx, request);
                }
                if (count == MAX_CODINGS) {
                    return tooManyCodings().toStage();
                }
                applied[count++] = coding;
            }
        }
        if (count == 0) {
            return next.handle(ctx, request);
        }
        HttpBody decoded = request.body();
        for (int i = count - 1; i >= 0; i--) {
            decoded = TransformedBody.decoded(decoded, applied[i], maxSize);
        }
        HttpRequest plain = request.withBody(decoded)
                .mapHeaders(edits -> edits.remove("content-encoding").remove("content-length"));
        return next.handle(ctx, plain);
    }

    private HttpResponse tooManyCodings() {
        StringBuilder accepted = new StringBuilder();
        for (ContentCoding coding : codings) {
            accepted.append(accepted.length() == 0 ? "" : ", ").append(coding.token());
        }
        return Problem.of(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
                .detail("The request body has more than " + MAX_CODINGS + " content codings.")
                .toResponse()
                .withHeader("Accept-Encoding", accepted.toString());
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }

    private ContentCoding coding(String field, int start, int end) {
        for (int i = 0; i < codings.size(); i++) {
            ContentCoding coding = codings.get(i);
            if (AcceptEncoding.names(field, start, end, coding.token())) {
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
