package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.ServerOptions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A streamed HTTP/2 response pulls its next chunk whenever the connection can take it again, whatever
 * Netty's flow controller last noticed about the channel's writability.
 */
class Http2ResponseWritabilityTest {
    private static final int TLS_WRITABILITY = 1;

    private final ChunkSource source = new ChunkSource();
    private final HeldWrites held = new HeldWrites();
    private final ServerRuntime runtime = new ServerRuntime(
            ServerOptions.ofDefault(),
            (ctx, request) -> CompletableFuture.completedFuture(
                    HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), HttpBody.of(source))),
            new RequestListeners(List.of()),
            null);
    private final EmbeddedChannel channel = new EmbeddedChannel(held, Http2ServerConnection.create(runtime, null));

    @AfterEach
    void releaseEverything() {
        channel.finishAndReleaseAll();
    }

    /**
     * Like TLS, whose handler holds encrypted bytes and announces the channel's writability changes in a
     * later task: the channel turns unwritable while a chunk is flushed and writable again before the
     * flow controller looks, which then sees no change to tell the stream about.
     */
    @Test
    void pullsTheNextChunkWhenTheChannelIsWritableAgainAfterAChangeTheFlowControllerMissed() throws Exception {
        channel.writeInbound(Http2RequestBytes.get());
        assertThat(source.requested).isEqualTo(1);
        // A socket that once filled up, as a long download's does: the flow controller knows it writable.
        setWritable(false);
        channel.runPendingTasks();
        setWritable(true);
        channel.runPendingTasks();

        held.unwritableOnNextFlush = true;
        source.subscriber.onNext(HttpData.ofUtf8("first chunk"));
        assertThat(channel.isWritable()).isFalse();
        assertThat(source.requested)
                .as("no chunk pulled while the channel cannot write")
                .isEqualTo(1);

        setWritable(true);
        channel.runPendingTasks();

        assertThat(source.requested).isEqualTo(2);
    }

    private void setWritable(boolean writable) {
        channel.unsafe().outboundBuffer().setUserDefinedWritability(TLS_WRITABILITY, writable);
    }

    /** Holds the bytes of a flush, as TLS does: the channel turns unwritable, announced in a later task. */
    private static final class HeldWrites extends ChannelOutboundHandlerAdapter {
        boolean unwritableOnNextFlush;

        @Override
        public void flush(ChannelHandlerContext ctx) {
            ctx.flush();
            if (unwritableOnNextFlush) {
                unwritableOnNextFlush = false;
                ctx.channel().unsafe().outboundBuffer().setUserDefinedWritability(TLS_WRITABILITY, false);
            }
        }
    }

    /** A response body whose chunks the test hands over, counting how many were asked for. */
    private static final class ChunkSource implements Flow.Publisher<HttpData> {
        Flow.Subscriber<? super HttpData> subscriber;
        long requested;

        @Override
        public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
            this.subscriber = subscriber;
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                    requested += n;
                }

                @Override
                public void cancel() {}
            });
        }
    }
}
