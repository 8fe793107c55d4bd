package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.ServerOptions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A streamed HTTP/2 response pulls its next chunk whenever the connection can take it again, whatever
 * Netty's flow controller last noticed about the channel's writability, and leaves in one flush per batch.
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

        // The first chunk's flush (a task, as it was written outside a read) leaves the channel unwritable; the second
        // chunk comes while it is, and the channel is writable again before the change is announced.
        held.unwritableOnNextFlush = true;
        long[] pulledWhileUnwritable = {-1};
        held.whileHeld = () -> {
            source.subscriber.onNext(HttpData.ofUtf8("second chunk"));
            pulledWhileUnwritable[0] = source.requested;
            setWritable(true);
        };
        source.subscriber.onNext(HttpData.ofUtf8("first chunk"));
        channel.runPendingTasks();

        assertThat(pulledWhileUnwritable[0])
                .as("no chunk pulled while the channel cannot write")
                .isEqualTo(2);
        assertThat(source.requested).isEqualTo(3);
    }

    @Test
    void pullsTheNextChunkWhenTheClientOpensTheStreamsWindow() throws Exception {
        heldByTheWindow(10, HttpData.ofUtf8("twelve bytes"));

        channel.writeInbound(Http2RequestBytes.windowUpdate(1, 100));

        assertThat(source.requested).isEqualTo(2);
        assertThat(String.join("", dataFrames())).isEqualTo("twelve bytes");
    }

    @Test
    void pullsTheNextChunkWhenTheClientOpensTheConnectionsWindow() throws Exception {
        heldByTheWindow(1 << 20, HttpData.wrap(new byte[70_000])); // Past the connection's first 65,535 bytes.

        channel.writeInbound(Http2RequestBytes.windowUpdate(0, 100_000));

        assertThat(source.requested).isEqualTo(2);
    }

    @Test
    void pullsTheNextChunkWhenTheClientRaisesTheInitialWindow() throws Exception {
        heldByTheWindow(10, HttpData.ofUtf8("twelve bytes"));

        channel.writeInbound(Http2RequestBytes.initialWindow(1000));

        assertThat(source.requested).isEqualTo(2);
    }

    /** Opens a stream with this initial window and sends a first chunk its window or the connection's cannot take. */
    private void heldByTheWindow(long initialWindow, HttpData chunk) throws Exception {
        channel.writeInbound(Http2RequestBytes.getWithInitialWindow(initialWindow));
        source.subscriber.onNext(chunk);
        channel.runPendingTasks();
        assertThat(source.requested)
                .as("nothing pulled while the window is closed")
                .isEqualTo(1);
    }

    /**
     * Chunks written outside the connection's read (a proxied body arrives on the upstream's channel) leave in one
     * flush after the event loop's batch, merged into one DATA frame: over TLS, a flush per chunk made two records of
     * each full frame, the second of 9 bytes.
     */
    @Test
    void flushesChunksWrittenOutsideAReadOnceAsOneDataFrame() throws Exception {
        channel.writeInbound(Http2RequestBytes.get());
        channel.runPendingTasks();
        releaseOutbound();
        int flushes = held.flushes;

        source.subscriber.onNext(HttpData.ofUtf8("first "));
        source.subscriber.onNext(HttpData.ofUtf8("second "));
        source.subscriber.onNext(HttpData.ofUtf8("third"));
        assertThat(held.flushes).as("no flush per chunk").isEqualTo(flushes);
        channel.runPendingTasks();

        assertThat(held.flushes).isEqualTo(flushes + 1);
        assertThat(dataFrames()).containsExactly("first second third");
    }

    private void releaseOutbound() {
        for (Object message; (message = channel.readOutbound()) != null; ) {
            ((ByteBuf) message).release();
        }
    }

    /** The payloads of the DATA frames written (RFC 9113, section 4.1: a 9-byte header before each payload). */
    private List<String> dataFrames() {
        ByteBuf written = Unpooled.buffer();
        for (Object message; (message = channel.readOutbound()) != null; ) {
            written.writeBytes((ByteBuf) message);
            ((ByteBuf) message).release();
        }
        List<String> payloads = new ArrayList<>();
        while (written.isReadable()) {
            int length = written.readUnsignedMedium();
            byte type = written.readByte();
            written.skipBytes(5);
            ByteBuf payload = written.readSlice(length);
            if (type == 0x0) {
                payloads.add(payload.toString(StandardCharsets.UTF_8));
            }
        }
        written.release();
        return payloads;
    }

    private void setWritable(boolean writable) {
        channel.unsafe().outboundBuffer().setUserDefinedWritability(TLS_WRITABILITY, writable);
    }

    /** Holds the bytes of a flush, as TLS does: the channel turns unwritable, announced in a later task. */
    private static final class HeldWrites extends ChannelOutboundHandlerAdapter {
        boolean unwritableOnNextFlush;
        /** Runs after the flush that turns the channel unwritable and before that change is announced. */
        Runnable whileHeld;

        int flushes;

        @Override
        public void flush(ChannelHandlerContext ctx) {
            flushes++;
            ctx.flush();
            if (unwritableOnNextFlush) {
                unwritableOnNextFlush = false;
                if (whileHeld != null) {
                    ctx.executor().execute(whileHeld);
                }
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
