package io.parry.transport.spi;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.parry.http.ContentTooLargeException;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InboundBodyTest {
    private static final int KIB = 1024;

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final RecordingFlow flow = new RecordingFlow();
    private final InboundBody body = new InboundBody(channel.eventLoop(), flow, -1);
    private final List<ByteBuf> created = new ArrayList<>();

    @AfterEach
    void releaseEverything() {
        body.discard();
        channel.finishAndReleaseAll();
        for (ByteBuf buffer : created) {
            assertThat(buffer.refCnt()).as("every buffer released exactly once").isZero();
        }
    }

    @Test
    void deliversChunksInOrderAsTheyAreDemanded() {
        RecordingSubscriber subscriber = new RecordingSubscriber();
        body.subscribeRaw(subscriber);
        body.onChunk(buffer("a"));
        body.onChunk(buffer("b"));
        body.onChunk(buffer("c"));

        assertThat(subscriber.signals).containsExactly("onSubscribe");
        subscriber.subscription.request(1);
        assertThat(subscriber.signals).containsExactly("onSubscribe", "a");
        subscriber.subscription.request(2);
        assertThat(subscriber.signals).containsExactly("onSubscribe", "a", "b", "c");
    }

    @Test
    void deliversChunksAsTheyArriveWhileDemandLasts() {
        RecordingSubscriber subscriber = new RecordingSubscriber();
        body.subscribeRaw(subscriber);
        subscriber.subscription.request(2);

        body.onChunk(buffer("a"));
        body.onChunk(buffer("b"));
        body.onChunk(buffer("c"));

        assertThat(subscriber.signals).containsExactly("onSubscribe", "a", "b");
    }

    @Test
    void deliversInOrderToASubscriberThatRequestsFromOnNext() {
        body.onChunk(buffer("a"));
        body.onChunk(buffer("b"));
        body.onChunk(buffer("c"));
        body.onEnd(HttpHeaders.empty());
        List<String> signals = new ArrayList<>();

        body.subscribeRaw(new ByteBufSubscriber() {
            private Flow.Subscription subscription;

            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                this.subscription = subscription;
                subscription.request(1);
            }

            @Override
            public void onNext(ByteBuf chunk) {
                signals.add("<" + chunk.toString(US_ASCII));
                chunk.release();
                subscription.request(1);
                signals.add(">");
            }

            @Override
            public void onComplete(HttpHeaders trailers) {
                signals.add("onComplete");
            }

            @Override
            public void onError(Throwable cause) {
                signals.add("onError");
            }
        });

        assertThat(signals).containsExactly("<a", ">", "<b", ">", "<c", ">", "onComplete");
    }

    @Test
    void discardsTheBodyWhenTheSubscriberThrows() {
        List<String> signals = new ArrayList<>();
        body.subscribeRaw(new ByteBufSubscriber() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuf chunk) {
                chunk.release();
                signals.add("onNext");
                throw new IllegalStateException("handler bug");
            }

            @Override
            public void onComplete(HttpHeaders trailers) {
                signals.add("onComplete");
            }

            @Override
            public void onError(Throwable cause) {
                signals.add("onError");
            }
        });

        body.onChunk(buffer("a"));
        ByteBuf late = buffer("b");
        body.onChunk(late);
        body.onEnd(HttpHeaders.empty());

        assertThat(signals).containsExactly("onNext");
        assertThat(late.refCnt()).isZero();
    }

    @Test
    void deliversChunksQueuedBeforeTheSubscriberCame() {
        body.onChunk(buffer("a"));
        body.onChunk(buffer("b"));
        RecordingSubscriber subscriber = new RecordingSubscriber();

        body.subscribeRaw(subscriber);
        subscriber.subscription.request(Long.MAX_VALUE);

        assertThat(subscriber.signals).containsExactly("onSubscribe", "a", "b");
    }

    @Test
    void completesWithTheTrailersAfterTheLastChunk() {
        HttpHeaders trailers = HttpHeaders.of("x-checksum", "abc");
        RecordingSubscriber subscriber = new RecordingSubscriber();
        body.subscribeRaw(subscriber);
        CompletableFuture<HttpHeaders> trailersStage = body.trailers().toCompletableFuture();
        body.onChunk(buffer("a"));
        body.onEnd(trailers);

        assertThat(trailersStage).isNotDone();
        assertThat(body.isReceived()).isTrue();
        subscriber.subscription.request(1);
        assertThat(subscriber.signals).containsExactly("onSubscribe", "a", "onComplete");
        assertThat(subscriber.trailers).isSameAs(trailers);
        assertThat(trailersStage.getNow(null)).isSameAs(trailers);
    }

    @Test
    void completesTrailersAskedForAfterTheBodyWasRead() {
        HttpHeaders trailers = HttpHeaders.of("x-a", "1");
        RecordingSubscriber subscriber = new RecordingSubscriber();
        body.subscribeRaw(subscriber);
        subscriber.subscription.request(1);
        body.onEnd(trailers);

        assertThat(subscriber.signals).containsExactly("onSubscribe", "onComplete");
        assertThat(body.trailers().toCompletableFuture().getNow(null)).isSameAs(trailers);
    }

    @Test
    void refusesASecondSubscriber() {
        body.subscribeRaw(new RecordingSubscriber());
        RecordingSubscriber second = new RecordingSubscriber();

        body.subscribeRaw(second);

        assertThat(second.signals).containsExactly("onSubscribe", "onError");
        assertThat(second.failure).isInstanceOf(IllegalStateException.class);
        assertThat(body.isSubscribed()).isTrue();
    }

    @Test
    void cancelReleasesQueuedAndLaterChunks() {
        RecordingSubscriber subscriber = new RecordingSubscriber();
        body.subscribeRaw(subscriber);
        ByteBuf first = buffer("a");
        ByteBuf second = buffer("b");
        body.onChunk(first);
        body.onChunk(second);

        subscriber.subscription.cancel();
        ByteBuf late = buffer("c");
        body.onChunk(late);

        assertThat(first.refCnt()).isZero();
        assertThat(second.refCnt()).isZero();
        assertThat(late.refCnt()).isZero();
        assertThat(subscriber.signals).containsExactly("onSubscribe");
    }

    @Test
    void discardReleasesQueuedAndLaterChunks() {
        ByteBuf queued = buffer("a");
        body.onChunk(queued);

        body.discard();
        ByteBuf late = buffer("b");
        body.onChunk(late);

        assertThat(queued.refCnt()).isZero();
        assertThat(late.refCnt()).isZero();
    }

    @Test
    void discardFailsTheSubscriberAndLaterSubscribers() {
        RecordingSubscriber subscriber = new RecordingSubscriber();
        body.subscribeRaw(subscriber);

        body.discard();
        RecordingSubscriber late = new RecordingSubscriber();
        body.subscribeRaw(late);

        assertThat(subscriber.signals).containsExactly("onSubscribe", "onError");
        assertThat(late.signals).containsExactly("onSubscribe", "onError");
    }

    @Test
    void tellsASubscriberThatComesAfterTheFailureWhyTheBodyFailed() {
        IllegalStateException malformed = new IllegalStateException("malformed chunk");
        body.onFailure(malformed);
        body.discard();

        RecordingSubscriber late = new RecordingSubscriber();
        body.subscribeRaw(late);

        assertThat(late.signals).containsExactly("onSubscribe", "onError");
        assertThat(late.failure).isSameAs(malformed);
    }

    @Test
    void discardCompletesTrailersWhenTheBodyEnds() {
        CompletableFuture<HttpHeaders> trailers = body.trailers().toCompletableFuture();
        body.discard();

        body.onEnd(HttpHeaders.of("x-a", "1"));

        assertThat(trailers.getNow(null)).isEqualTo(HttpHeaders.of("x-a", "1"));
    }

    @Test
    void failureIsDeliveredAfterQueuedChunksAreDropped() {
        RecordingSubscriber subscriber = new RecordingSubscriber();
        body.subscribeRaw(subscriber);
        ByteBuf queued = buffer("a");
        body.onChunk(queued);
        CompletableFuture<HttpHeaders> trailers = body.trailers().toCompletableFuture();
        IllegalStateException broken = new IllegalStateException("connection reset");

        body.onFailure(broken);

        assertThat(queued.refCnt()).isZero();
        assertThat(subscriber.signals).containsExactly("onSubscribe", "onError");
        assertThat(subscriber.failure).isSameAs(broken);
        assertThatThrownBy(() -> trailers.getNow(null)).hasCause(broken);
    }

    @Test
    void failsANonPositiveRequestAndDiscardsTheBody() {
        RecordingSubscriber subscriber = new RecordingSubscriber();
        body.subscribeRaw(subscriber);
        ByteBuf queued = buffer("a");
        body.onChunk(queued);

        subscriber.subscription.request(0);

        assertThat(subscriber.signals).containsExactly("onSubscribe", "onError");
        assertThat(subscriber.failure).isInstanceOf(IllegalArgumentException.class);
        assertThat(queued.refCnt()).isZero();
    }

    @Test
    void pausesTheConnectionWhenMoreThan64KiBWait() {
        body.subscribeRaw(new RecordingSubscriber());
        for (int i = 0; i < 3; i++) {
            body.onChunk(buffer(16 * KIB));
        }
        assertThat(flow.pauses).isZero();

        body.onChunk(buffer(16 * KIB));
        body.onChunk(buffer(16 * KIB));

        assertThat(flow.pauses).isEqualTo(1);
        assertThat(flow.resumes).isZero();
    }

    @Test
    void resumesTheConnectionOnceTheWaitingBytesAreConsumed() {
        RecordingSubscriber subscriber = new RecordingSubscriber();
        body.subscribeRaw(subscriber);
        for (int i = 0; i < 5; i++) {
            body.onChunk(buffer(16 * KIB));
        }
        assertThat(flow.pauses).isEqualTo(1);

        subscriber.subscription.request(1);
        assertThat(flow.resumes)
                .as("still more than half the watermark waiting")
                .isZero();
        subscriber.subscription.request(4);

        assertThat(flow.resumes).isEqualTo(1);
        assertThat(flow.pauses).isEqualTo(1);
    }

    @Test
    void resumesTheConnectionWhenAPausedBodyIsDiscarded() {
        for (int i = 0; i < 5; i++) {
            body.onChunk(buffer(16 * KIB));
        }
        assertThat(flow.pauses).isEqualTo(1);

        body.discard();

        assertThat(flow.resumes).isEqualTo(1);
    }

    @Test
    void tellsTheConnectionOnTheFirstRequestOnly() {
        RecordingSubscriber subscriber = new RecordingSubscriber();
        body.subscribeRaw(subscriber);
        assertThat(flow.demands).isZero();

        subscriber.subscription.request(1);
        subscriber.subscription.request(1);

        assertThat(flow.demands).isEqualTo(1);
    }

    @Test
    void givesHttpDataSubscribersCopiesAndReleasesTheBuffers() {
        List<HttpData> received = new ArrayList<>();
        body.subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(HttpData item) {
                received.add(item);
            }

            @Override
            public void onError(Throwable throwable) {}

            @Override
            public void onComplete() {}
        });
        byte[] bytes = "hello".getBytes(US_ASCII);
        ByteBuf chunk = Unpooled.wrappedBuffer(bytes);
        created.add(chunk);

        body.onChunk(chunk);
        bytes[0] = 'j';

        assertThat(chunk.refCnt()).isZero();
        assertThat(received).containsExactly(HttpData.ofUtf8("hello"));
    }

    @Test
    void aggregateReturnsTheWholeBody() {
        CompletableFuture<HttpData> whole = body.aggregate(100).toCompletableFuture();

        body.onChunk(buffer("hello, "));
        body.onChunk(buffer("world"));
        assertThat(whole).isNotDone();
        body.onEnd(HttpHeaders.empty());

        assertThat(whole.getNow(null).toStringUtf8()).isEqualTo("hello, world");
    }

    @Test
    void aggregateOfQueuedChunksReturnsTheWholeBody() {
        body.onChunk(buffer("hello"));
        body.onEnd(HttpHeaders.empty());

        assertThat(body.aggregate(5).toCompletableFuture().getNow(null).toStringUtf8())
                .isEqualTo("hello");
    }

    @Test
    void aggregateFailsAndDrainsWhenTheBodyGrowsPastTheBound() {
        CompletableFuture<HttpData> whole = body.aggregate(4).toCompletableFuture();

        body.onChunk(buffer("abc"));
        body.onChunk(buffer("def"));
        ByteBuf late = buffer("ghi");
        body.onChunk(late);

        assertThatThrownBy(() -> whole.getNow(null)).hasCauseInstanceOf(ContentTooLargeException.class);
        assertThat(late.refCnt()).isZero();
    }

    @Test
    void aggregateFailsAtOnceWhenTheDeclaredLengthIsOverTheBound() {
        InboundBody declared = new InboundBody(channel.eventLoop(), flow, 10);
        ByteBuf queued = buffer("abc");
        declared.onChunk(queued);

        CompletableFuture<HttpData> whole = declared.aggregate(4).toCompletableFuture();

        assertThatThrownBy(() -> whole.getNow(null)).hasCauseInstanceOf(ContentTooLargeException.class);
        assertThat(queued.refCnt()).isZero();
        assertThat(declared.contentLength()).isEqualTo(10);
    }

    @Test
    void takeReceivedHandsOverAWholeBodyAsOneBuffer() {
        body.onChunk(buffer("hel"));
        body.onChunk(buffer("lo"));
        body.onEnd(HttpHeaders.empty());

        ByteBuf whole = body.takeReceived();
        try {
            assertThat(whole.toString(US_ASCII)).isEqualTo("hello");
        } finally {
            whole.release();
        }
        assertThat(body.isSubscribed()).isTrue();
        assertThat(body.trailers().toCompletableFuture().getNow(null)).isEqualTo(HttpHeaders.empty());
    }

    @Test
    void takeReceivedHandsOverABodyOfOneChunkAsThatChunk() {
        ByteBuf chunk = buffer("hello");
        body.onChunk(chunk);
        body.onEnd(HttpHeaders.empty());

        ByteBuf whole = body.takeReceived();
        assertThat(whole).isSameAs(chunk);
        whole.release();
    }

    @Test
    void deliversInOrderChunksThatArriveWhileEarlierOnesAreBeingRead() {
        RecordingSubscriber subscriber = new RecordingSubscriber();
        body.subscribeRaw(subscriber);
        body.onChunk(buffer("a"));
        subscriber.subscription.request(1);
        body.onChunk(buffer("b"));
        body.onChunk(buffer("c"));
        subscriber.subscription.request(1);
        body.onChunk(buffer("d"));
        subscriber.subscription.request(2);

        assertThat(subscriber.signals).containsExactly("onSubscribe", "a", "b", "c", "d");
    }

    @Test
    void takeReceivedHandsOverAnEmptyBodyAsAnEmptyBuffer() {
        body.onEnd(HttpHeaders.empty());

        assertThat(body.takeReceived().readableBytes()).isZero();
    }

    @Test
    void takeReceivedLeavesABodyStillArrivingToBeStreamed() {
        body.onChunk(buffer("hel"));

        assertThat(body.takeReceived()).isNull();

        RecordingSubscriber subscriber = new RecordingSubscriber();
        body.subscribeRaw(subscriber);
        subscriber.subscription.request(1);
        assertThat(subscriber.signals).containsExactly("onSubscribe", "hel");
    }

    @Test
    void takeReceivedLeavesABodyWithTrailersToBeStreamed() {
        body.onChunk(buffer("hello"));
        body.onEnd(HttpHeaders.of("x-digest", "abc"));

        assertThat(body.takeReceived()).isNull();
    }

    @Test
    void takeReceivedLeavesASubscribedBodyToItsSubscriber() {
        RecordingSubscriber subscriber = new RecordingSubscriber();
        body.subscribeRaw(subscriber);
        body.onChunk(buffer("hello"));
        body.onEnd(HttpHeaders.empty());

        assertThat(body.takeReceived()).isNull();
    }

    @Test
    void aTakenBodyRefusesSubscribers() {
        body.onEnd(HttpHeaders.empty());
        body.takeReceived();

        RecordingSubscriber subscriber = new RecordingSubscriber();
        body.subscribeRaw(subscriber);

        assertThat(subscriber.failure).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void takeReceivedResumesAPausedConnection() {
        for (int i = 0; i < 5; i++) {
            body.onChunk(buffer(16 * KIB));
        }
        body.onEnd(HttpHeaders.empty());
        assertThat(flow.pauses).isEqualTo(1);

        ByteBuf whole = body.takeReceived();
        try {
            assertThat(whole.readableBytes()).isEqualTo(80 * KIB);
        } finally {
            whole.release();
        }
        assertThat(flow.resumes).isEqualTo(1);
    }

    private ByteBuf buffer(String text) {
        ByteBuf buffer = Unpooled.copiedBuffer(text, US_ASCII);
        created.add(buffer);
        return buffer;
    }

    private ByteBuf buffer(int length) {
        ByteBuf buffer = Unpooled.buffer(length).writeZero(length);
        created.add(buffer);
        return buffer;
    }

    /** Counts what the body asked of its connection. */
    private static final class RecordingFlow implements BodyFlow {
        int pauses;
        int resumes;
        int demands;

        @Override
        public void pause() {
            pauses++;
        }

        @Override
        public void resume() {
            resumes++;
        }

        @Override
        public void demanded() {
            demands++;
        }
    }

    /** Records signals as text and releases each chunk at once; requests nothing by itself. */
    private static final class RecordingSubscriber implements ByteBufSubscriber {
        final List<String> signals = new ArrayList<>();
        Flow.Subscription subscription;
        HttpHeaders trailers;
        Throwable failure;

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            signals.add("onSubscribe");
        }

        @Override
        public void onNext(ByteBuf chunk) {
            try {
                signals.add(chunk.toString(US_ASCII));
            } finally {
                chunk.release();
            }
        }

        @Override
        public void onComplete(HttpHeaders trailers) {
            this.trailers = trailers;
            signals.add("onComplete");
        }

        @Override
        public void onError(Throwable cause) {
            failure = cause;
            signals.add("onError");
        }
    }
}
