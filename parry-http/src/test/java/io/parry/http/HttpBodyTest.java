package io.parry.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.SubmissionPublisher;
import org.junit.jupiter.api.Test;

class HttpBodyTest {

    @Test
    void emptyHasLengthZeroAndCompletesWithoutChunks() {
        RecordingSubscriber subscriber = new RecordingSubscriber(1);

        HttpBody.empty().subscribe(subscriber);

        assertThat(HttpBody.empty().contentLength()).isZero();
        assertThat(subscriber.signals()).containsExactly("onSubscribe", "onComplete");
    }

    @Test
    void ofDataHasItsLength() {
        assertThat(HttpBody.of(HttpData.ofUtf8("hello")).contentLength()).isEqualTo(5);
        assertThat(HttpBody.of(HttpData.empty())).isSameAs(HttpBody.empty());
    }

    @Test
    void ofUtf8HasTheEncodedLength() {
        assertThat(HttpBody.ofUtf8("caf\u00e9").contentLength()).isEqualTo(5);
        assertThat(HttpBody.ofUtf8("")).isSameAs(HttpBody.empty());
    }

    @Test
    void streamedBodyHasUnknownLengthUnlessDeclared() {
        assertThat(HttpBody.of(ChunkPublisher.of("a")).contentLength()).isEqualTo(-1);
        assertThat(HttpBody.of(ChunkPublisher.of("a"), 1).contentLength()).isEqualTo(1);
    }

    @Test
    void streamedBodyRejectsANegativeDeclaredLength() {
        assertThatThrownBy(() -> HttpBody.of(ChunkPublisher.of("a"), -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("contentLength: -1 (expected: >= 0)");
    }

    @Test
    void fixedBodyCanBeSubscribedTwice() {
        HttpBody body = HttpBody.ofUtf8("hello");
        RecordingSubscriber first = new RecordingSubscriber(1);
        RecordingSubscriber second = new RecordingSubscriber(Long.MAX_VALUE);

        body.subscribe(first);
        body.subscribe(second);

        assertThat(first.signals()).containsExactly("onSubscribe", "onNext:hello", "onComplete");
        assertThat(second.signals()).containsExactly("onSubscribe", "onNext:hello", "onComplete");
    }

    @Test
    void fixedBodyDeliversNothingBeforeDemand() {
        RecordingSubscriber subscriber = new RecordingSubscriber(0);

        HttpBody.ofUtf8("hello").subscribe(subscriber);

        assertThat(subscriber.signals()).containsExactly("onSubscribe");
        subscriber.subscription().request(1);
        assertThat(subscriber.signals()).containsExactly("onSubscribe", "onNext:hello", "onComplete");
    }

    @Test
    void fixedBodyDeliversNothingAfterCancel() {
        RecordingSubscriber subscriber = new RecordingSubscriber(0);
        HttpBody.ofUtf8("hello").subscribe(subscriber);

        subscriber.subscription().cancel();
        subscriber.subscription().request(1);

        assertThat(subscriber.signals()).containsExactly("onSubscribe");
    }

    @Test
    void fixedBodyFailsANonPositiveRequest() {
        RecordingSubscriber subscriber = new RecordingSubscriber(0);
        HttpBody.ofUtf8("hello").subscribe(subscriber);

        subscriber.subscription().request(0);

        assertThat(subscriber.signals()).containsExactly("onSubscribe", "onError");
        assertThat(subscriber.failure()).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fixedBodyHasNoTrailers() {
        CompletableFuture<HttpHeaders> trailers =
                HttpBody.ofUtf8("x").trailers().toCompletableFuture();

        assertThat(trailers.getNow(null)).isSameAs(HttpHeaders.empty());
    }

    @Test
    void streamedBodyRefusesASecondSubscriberAfterOnSubscribe() {
        ChunkPublisher chunks = ChunkPublisher.of("a", "b");
        HttpBody body = HttpBody.of(chunks);
        RecordingSubscriber first = new RecordingSubscriber(Long.MAX_VALUE);
        RecordingSubscriber second = new RecordingSubscriber(Long.MAX_VALUE);

        body.subscribe(first);
        body.subscribe(second);

        assertThat(first.signals()).containsExactly("onSubscribe", "onNext:a", "onNext:b", "onComplete");
        assertThat(second.signals()).containsExactly("onSubscribe", "onError");
        assertThat(second.failure()).isInstanceOf(IllegalStateException.class);
        assertThat(chunks.subscriptions()).isEqualTo(1);
    }

    @Test
    void streamedBodyHasTheTrailersItWasGiven() {
        CompletableFuture<HttpHeaders> trailers = new CompletableFuture<>();

        HttpBody body = HttpBody.of(ChunkPublisher.of("a"), trailers);

        assertThat(body.trailers()).isSameAs(trailers);
        assertThat(body.contentLength()).isEqualTo(-1);
        assertThat(HttpBody.of(ChunkPublisher.of("a"))
                        .trailers()
                        .toCompletableFuture()
                        .getNow(null))
                .isEqualTo(HttpHeaders.empty());
    }

    @Test
    void aggregateOfAFixedBodyReturnsItsData() {
        HttpData data = HttpData.ofUtf8("hello");

        CompletableFuture<HttpData> whole = HttpBody.of(data).aggregate(5).toCompletableFuture();

        assertThat(whole.getNow(null)).isEqualTo(data);
    }

    @Test
    void aggregateOfAnEmptyBodyReturnsNoBytes() {
        assertThat(HttpBody.empty()
                        .aggregate(0)
                        .toCompletableFuture()
                        .getNow(null)
                        .isEmpty())
                .isTrue();
    }

    @Test
    void aggregateOfAFixedBodyFailsOverTheBound() {
        CompletableFuture<HttpData> whole =
                HttpBody.ofUtf8("hello").aggregate(4).toCompletableFuture();

        assertThat(whole).isCompletedExceptionally();
        assertThatThrownBy(() -> whole.getNow(null))
                .hasCauseInstanceOf(ContentTooLargeException.class)
                .cause()
                .satisfies(e ->
                        assertThat(((ContentTooLargeException) e).maxBytes()).isEqualTo(4));
    }

    @Test
    void aggregateRejectsANegativeBound() {
        assertThatThrownBy(() -> HttpBody.ofUtf8("x").aggregate(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxBytes: -1 (expected: >= 0)");
        assertThatThrownBy(() -> HttpBody.of(ChunkPublisher.of("x")).aggregate(-1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aggregateJoinsTheChunksOfAStreamedBody() {
        CompletableFuture<HttpData> whole = HttpBody.of(ChunkPublisher.of("ab", "", "cd", "e"))
                .aggregate(100)
                .toCompletableFuture();

        assertThat(whole.getNow(null).toStringUtf8()).isEqualTo("abcde");
    }

    @Test
    void aggregateGrowsBeyondItsFirstGuessOfTheLength() {
        byte[] first = filled(300, 'a');
        byte[] second = filled(700, 'b');
        ChunkPublisher chunks = ChunkPublisher.of(HttpData.wrap(first), HttpData.wrap(second));

        CompletableFuture<HttpData> whole = HttpBody.of(chunks).aggregate(1000).toCompletableFuture();

        byte[] expected = Arrays.copyOf(first, 1000);
        System.arraycopy(second, 0, expected, 300, 700);
        assertThat(whole.getNow(null).toByteArray()).isEqualTo(expected);
    }

    @Test
    void aggregateAcceptsMoreBytesThanDeclaredWithinTheBound() {
        CompletableFuture<HttpData> whole =
                HttpBody.of(ChunkPublisher.of("abc", "def"), 2).aggregate(10).toCompletableFuture();

        assertThat(whole.getNow(null).toStringUtf8()).isEqualTo("abcdef");
    }

    @Test
    void aggregateOfASubmissionPublisherCollectsEverySubmittedChunk() {
        try (SubmissionPublisher<HttpData> publisher = new SubmissionPublisher<>(Runnable::run, 4)) {
            CompletableFuture<HttpData> whole =
                    HttpBody.of(publisher).aggregate(100).toCompletableFuture();

            publisher.submit(HttpData.ofUtf8("one "));
            publisher.submit(HttpData.ofUtf8("two "));
            publisher.submit(HttpData.ofUtf8("three"));
            publisher.close();

            assertThat(whole.getNow(null).toStringUtf8()).isEqualTo("one two three");
        }
    }

    @Test
    void aggregateFailsAtOnceWhenTheDeclaredLengthIsOverTheBound() {
        ChunkPublisher chunks = ChunkPublisher.of("hello");

        CompletableFuture<HttpData> whole = HttpBody.of(chunks, 5).aggregate(4).toCompletableFuture();

        assertThatThrownBy(() -> whole.getNow(null)).hasCauseInstanceOf(ContentTooLargeException.class);
        assertThat(chunks.cancelled()).isTrue();
        assertThat(chunks.published()).isZero();
    }

    @Test
    void aggregateFailsAtOnceWhenTheDeclaredLengthCannotFitInOneArray() {
        ChunkPublisher chunks = ChunkPublisher.of("hello");

        CompletableFuture<HttpData> whole =
                HttpBody.of(chunks, 3_000_000_000L).aggregate(Long.MAX_VALUE).toCompletableFuture();

        assertThatThrownBy(() -> whole.getNow(null)).hasCauseInstanceOf(ContentTooLargeException.class);
        assertThat(chunks.cancelled()).isTrue();
    }

    @Test
    void aggregateFailsAsSoonAsAStreamedBodyPassesTheBound() {
        ChunkPublisher chunks = ChunkPublisher.of("abc", "def", "ghi");

        CompletableFuture<HttpData> whole = HttpBody.of(chunks).aggregate(5).toCompletableFuture();

        assertThatThrownBy(() -> whole.getNow(null)).hasCauseInstanceOf(ContentTooLargeException.class);
        assertThat(chunks.cancelled()).isTrue();
        assertThat(chunks.published()).isEqualTo(2);
    }

    @Test
    void aggregateAcceptsABodyOfExactlyTheBound() {
        CompletableFuture<HttpData> whole =
                HttpBody.of(ChunkPublisher.of("abc", "de")).aggregate(5).toCompletableFuture();

        assertThat(whole.getNow(null).toStringUtf8()).isEqualTo("abcde");
    }

    @Test
    void aggregateFailsWithTheBodysFailure() {
        IllegalStateException broken = new IllegalStateException("connection reset");

        CompletableFuture<HttpData> whole = HttpBody.of(ChunkPublisher.failingAfter(broken, "abc"))
                .aggregate(100)
                .toCompletableFuture();

        assertThatThrownBy(() -> whole.getNow(null)).hasCause(broken);
    }

    private static byte[] filled(int length, char c) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte) c);
        return bytes;
    }
}
