package io.parry.transport.spi.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What reaches the SslHandler from a batch: the buffers of a flush as one, their promises completed with it. */
class TlsWriteBatchTest {

    @Test
    void handsTheBuffersOfOneFlushOnAsOneBufferAndCompletesTheirPromisesWithIt() {
        EmbeddedChannel channel = new EmbeddedChannel(new TlsWriteBatch());
        ChannelPromise first = channel.newPromise();
        ChannelPromise second = channel.newPromise();

        channel.write(text("HEADERS"), first);
        channel.write(text("DATA"), channel.voidPromise());
        channel.write(text("END"), second);
        assertThat(first).isNotDone();
        channel.flush();

        assertThat(texts(channel)).containsExactly("HEADERSDATAEND");
        assertThat(first.isSuccess()).isTrue();
        assertThat(second.isSuccess()).isTrue();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void copiesSlicesAndCompositesIntoTheBatchFromTheirReadableBytes() {
        EmbeddedChannel channel = new EmbeddedChannel(new TlsWriteBatch());
        ByteBuf read = text("..HEAD..");
        ByteBuf slice = read.retainedSlice(2, 4);
        read.release();
        ByteBuf composite = Unpooled.compositeBuffer().addComponents(true, text("ER"), text("S|"));
        composite.readerIndex(0).writerIndex(3);

        channel.write(slice);
        channel.write(composite);
        channel.write(text("BODY"));
        channel.flush();

        assertThat(texts(channel)).containsExactly("HEADERSBODY");
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void passesALoneBufferOnAsItIs() {
        EmbeddedChannel channel = new EmbeddedChannel(new TlsWriteBatch());
        ByteBuf only = text("only");

        channel.writeAndFlush(only);

        ByteBuf written = channel.readOutbound();
        assertThat(written).isSameAs(only);
        written.release();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void keepsEachFlushWholeWhenFlushesOfOneBufferAndOfManyAlternate() {
        EmbeddedChannel channel = new EmbeddedChannel(new TlsWriteBatch());
        ChannelPromise lone = channel.newPromise();
        ChannelPromise batched = channel.newPromise();

        channel.writeAndFlush(text("a"), lone);
        channel.write(text("b"));
        channel.write(text("c"), batched);
        channel.write(text("d"));
        channel.flush();
        channel.writeAndFlush(text("e"));
        channel.write(text("f"));
        channel.write(text("g"));
        channel.flush();

        assertThat(texts(channel)).containsExactly("a", "bcd", "e", "fg");
        assertThat(lone.isSuccess()).isTrue();
        assertThat(batched.isSuccess()).isTrue();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void sendsTheBatchOnBeforeABufferThatWouldTakeItPastOneRecord() {
        EmbeddedChannel channel = new EmbeddedChannel(new TlsWriteBatch());
        byte[] large = new byte[TlsWriteBatch.MAX_BYTES - 1];

        channel.write(text("a"));
        channel.write(text("b"));
        channel.write(Unpooled.wrappedBuffer(large));
        channel.write(text("c"));
        channel.write(Unpooled.wrappedBuffer(new byte[TlsWriteBatch.MAX_BYTES]));
        channel.flush();

        List<Integer> sizes = new ArrayList<>();
        for (ByteBuf written; (written = channel.readOutbound()) != null; ) {
            sizes.add(written.readableBytes());
            written.release();
        }
        assertThat(sizes).containsExactly(2, TlsWriteBatch.MAX_BYTES, TlsWriteBatch.MAX_BYTES);
    }

    @Test
    void failsEveryPromiseOfTheBatchWhenItsWriteFails() {
        IOException broken = new IOException("broken pipe");
        EmbeddedChannel channel = new EmbeddedChannel(new FailingWrites(broken), new TlsWriteBatch());
        ChannelPromise first = channel.newPromise();
        ChannelPromise second = channel.newPromise();

        channel.write(text("one"), first);
        channel.write(text("two"), second);
        channel.flush();

        assertThat(first.cause()).isSameAs(broken);
        assertThat(second.cause()).isSameAs(broken);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void failsAndReleasesWhatItHoldsWhenTheConnectionEndsWithoutAFlush(int buffers) {
        EmbeddedChannel channel = new EmbeddedChannel(new TlsWriteBatch());
        List<ByteBuf> held = new ArrayList<>();
        ChannelPromise promise = channel.newPromise();
        for (int i = 0; i < buffers; i++) {
            held.add(text("held " + i));
            channel.write(held.get(i), i == 0 ? promise : channel.voidPromise());
        }

        channel.unsafe().closeForcibly();
        channel.pipeline().remove(TlsWriteBatch.class);

        assertThat(promise.cause()).isInstanceOf(ClosedChannelException.class);
        assertThat(held).allSatisfy(buffer -> assertThat(buffer.refCnt()).isZero());
    }

    @Test
    void sendsWhatItHoldsBeforeTheConnectionCloses() {
        List<String> events = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(new Recorder(events), new TlsWriteBatch());

        channel.write(text("last"));
        channel.close();

        assertThat(events).containsExactly("write last", "close");
    }

    @Test
    void joinsOnlyAnOpenSslEngine() throws SSLException {
        assumeTrue(OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load");

        assertThat(batchAfter(SslProvider.OPENSSL)).isNotNull();
        assertThat(batchAfter(SslProvider.JDK)).isNull();
    }

    private static TlsWriteBatch batchAfter(SslProvider provider) throws SSLException {
        SslContext context = SslContextBuilder.forClient()
                .sslProvider(provider)
                .trustManager(InsecureTrustManagerFactory.INSTANCE)
                .build();
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.pipeline().addLast("ssl", context.newHandler(ByteBufAllocator.DEFAULT));
        TlsWriteBatch.addAfter(channel.pipeline().context("ssl"));
        TlsWriteBatch batch = channel.pipeline().get(TlsWriteBatch.class);
        channel.finishAndReleaseAll();
        return batch;
    }

    private static ByteBuf text(String text) {
        return Unpooled.directBuffer().writeBytes(text.getBytes(StandardCharsets.US_ASCII));
    }

    private static List<String> texts(EmbeddedChannel channel) {
        List<String> texts = new ArrayList<>();
        for (ByteBuf written; (written = channel.readOutbound()) != null; ) {
            texts.add(written.toString(StandardCharsets.US_ASCII));
            written.release();
        }
        return texts;
    }

    /** Fails every write, as a connection whose peer went away does. */
    private static final class FailingWrites extends ChannelOutboundHandlerAdapter {
        private final Throwable cause;

        FailingWrites(Throwable cause) {
            this.cause = cause;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            ((ByteBuf) msg).release();
            promise.setFailure(cause);
        }
    }

    /** Notes the writes and the close that reach it. */
    private static final class Recorder extends ChannelOutboundHandlerAdapter {
        private final List<String> events;

        Recorder(List<String> events) {
            this.events = events;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            events.add("write " + ((ByteBuf) msg).toString(StandardCharsets.US_ASCII));
            ctx.write(msg, promise);
        }

        @Override
        public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
            events.add("close");
            ctx.close(promise);
        }
    }
}
