package io.parry.http;

import static java.util.Objects.requireNonNull;

import io.parry.http.internal.PublisherBody;
import io.parry.http.spi.AggregatingSubscriber;
import io.parry.http.spi.FixedBody;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A message body: a single-subscriber {@link Flow.Publisher} of byte chunks with backpressure,
 * optionally followed by trailer fields. Nothing is buffered unless a caller asks with
 * {@link #aggregate(long)}, which states its bound.
 *
 * <p>A body can be consumed once. A second subscriber receives {@code onError} with an
 * {@link IllegalStateException}. A body nobody consumes is drained and its memory released by the
 * server when the exchange ends.
 *
 * <pre>{@code
 * HttpBody fixed = HttpBody.ofUtf8("hello");
 * HttpBody streamed = HttpBody.of(publisherOfChunks);
 * CompletionStage<HttpData> whole = request.body().aggregate(1 << 20);
 * }</pre>
 */
public interface HttpBody extends Flow.Publisher<HttpData> {

    /** The body's length in bytes, or {@code -1} when it is not known before the body ends. */
    long contentLength();

    /**
     * The trailer fields (empty when there are none). For a body received from the network the stage
     * completes when the body has been read to its end, and never if it is not read; for a body built
     * by the application it completes when the application's trailers are ready.
     */
    CompletionStage<HttpHeaders> trailers();

    /**
     * Reads the whole body into one chunk.
     *
     * @param maxBytes the most bytes accepted
     * @return a stage that completes with the bytes, or fails with {@link ContentTooLargeException} as
     *     soon as the body is known to be longer than {@code maxBytes}
     */
    default CompletionStage<HttpData> aggregate(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: >= 0)");
        }
        // One array holds the result, so a bound past the largest array is that array's size.
        long limit = AggregatingSubscriber.limit(maxBytes);
        if (contentLength() > limit) {
            CompletableFuture<HttpData> tooLarge = new CompletableFuture<>();
            tooLarge.completeExceptionally(new ContentTooLargeException(limit));
            subscribe(AggregatingSubscriber.cancelling());
            return tooLarge;
        }
        AggregatingSubscriber aggregator = new AggregatingSubscriber(maxBytes, contentLength());
        subscribe(aggregator);
        return aggregator.result();
    }

    /** A body with no bytes. */
    static HttpBody empty() {
        return FixedBody.EMPTY;
    }

    /** A body of one chunk, with a known length. */
    static HttpBody of(HttpData data) {
        return data.isEmpty() ? FixedBody.EMPTY : new FixedBody(data);
    }

    /** A body holding this text in UTF-8. */
    static HttpBody ofUtf8(String text) {
        return of(HttpData.ofUtf8(text));
    }

    /** A body streamed from a publisher whose length is not known in advance (sent chunked on HTTP/1.1). */
    static HttpBody of(Flow.Publisher<HttpData> chunks) {
        return new PublisherBody(requireNonNull(chunks, "chunks"), -1, null);
    }

    /**
     * A body streamed from a publisher that will publish exactly {@code contentLength} bytes. A
     * publisher that publishes another count fails the exchange and closes the connection.
     */
    static HttpBody of(Flow.Publisher<HttpData> chunks, long contentLength) {
        if (contentLength < 0) {
            throw new IllegalArgumentException("contentLength: " + contentLength + " (expected: >= 0)");
        }
        return new PublisherBody(requireNonNull(chunks, "chunks"), contentLength, null);
    }

    /**
     * A streamed body followed by trailer fields, which are sent when the publisher completes; the
     * stage must complete by then.
     */
    static HttpBody of(Flow.Publisher<HttpData> chunks, CompletionStage<HttpHeaders> trailers) {
        return new PublisherBody(requireNonNull(chunks, "chunks"), -1, requireNonNull(trailers, "trailers"));
    }
}
